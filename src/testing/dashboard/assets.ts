// The dashboard's style and script, inlined into the page under a CSP nonce (the page loads
// nothing else). The script only calls the control API and swaps in the server-rendered fragment:
// it never builds markup from data, so escaping stays in one place (the server).

export const DASHBOARD_STYLE = `
:root{--ink:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f7f8fa;--accent:#1f5eff}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg);margin:0}
header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;padding:.9rem 1.5rem;background:#fff;border-bottom:1px solid var(--line)}
h1{font-size:1.15rem;margin:0}
h2{font-size:1rem;margin:1.4rem 0 .5rem}
main{padding:0 1.5rem 2rem}
.controls{display:flex;gap:.4rem;align-items:center;flex-wrap:wrap}
.controls a{margin-left:.6rem;color:var(--accent)}
.clock{margin:1rem 0 0;display:flex;gap:.8rem;align-items:center}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid var(--line);border-radius:8px;overflow:hidden}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fbfcfd}
tr:last-child td{border-bottom:0}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.empty{color:var(--muted);text-align:center;padding:1rem}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
.small{font-size:.8rem}.muted{color:var(--muted)}
.actions{white-space:nowrap}
button{font:inherit;font-size:.8rem;padding:.25rem .6rem;margin:0 .15rem .15rem 0;border:1px solid var(--line);border-radius:6px;background:#fff;color:var(--ink);cursor:pointer}
button:hover:not(:disabled){border-color:var(--accent);color:var(--accent)}
button:disabled{opacity:.35;cursor:default}
button.danger{color:#b42318}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.75rem;font-weight:600;background:#eef0f3;color:#344054}
.s-pending,.s-partially_paid{background:#fff4e5;color:#b54708}
.s-approved{background:#e8f0ff;color:#1f5eff}
.s-settled,.s-paid,.s-delivered{background:#e7f6ec;color:#067647}
.s-declined,.s-failed,.s-dead_letter{background:#fdecec;color:#b42318}
.s-refunded{background:#f3ecff;color:#6941c6}
#toast{min-height:1.4rem;margin:.6rem 1.5rem 0;font-size:.85rem}
#toast.error{color:#b42318}
`;

export const DASHBOARD_SCRIPT = `
(() => {
  const live = document.getElementById('live');
  const toast = document.getElementById('toast');
  let busy = 0;
  const say = (text, error) => { toast.textContent = text; toast.className = error ? 'error' : ''; };
  async function refresh() {
    if (busy) return;
    try {
      const response = await fetch('/_mock/?part=live', { cache: 'no-store' });
      if (response.ok && !busy) live.innerHTML = await response.text();
    } catch { /* the mock stopped: keep the last view */ }
  }
  document.addEventListener('click', async (event) => {
    const target = event.target instanceof Element ? event.target.closest('button[data-post]') : null;
    if (!target || target.disabled) return;
    if (target.dataset.confirm && !window.confirm(target.dataset.confirm)) return;
    const body = target.dataset.body;
    busy++;
    target.disabled = true;
    try {
      const response = await fetch(target.dataset.post, {
        method: 'POST',
        headers: body ? { 'content-type': 'application/json' } : {},
        body,
      });
      const data = await response.json().catch(() => ({}));
      say(response.ok ? target.dataset.label + ': done' : response.status + ' ' + data.error + ': ' + data.message, !response.ok);
    } catch (error) {
      say('The mock did not answer: ' + error, true);
    } finally {
      busy--;
      await refresh();
    }
  });
  setInterval(refresh, 2000);
})();
`;
