// Does a runtime's HTTP client send a POST twice on its own? Each runtime reads once (which leaves
// a connection in its pool), then POSTs; a loopback server reads the POST and drops the connection
// without answering, by a TCP reset (RST) or a plain close (FIN), and counts the POSTs it received.
// No SDK here: this measures the runtimes (docs/runtimes.md, "Requests sent once").
//
//   node scripts/ecosystem/resend-probe.mjs
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EdgeRuntime } from 'edge-runtime';
import { Miniflare } from 'miniflare';
import { nodeBinary, npm, root, run } from '../pack.mjs';

const posts = new Map();
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  req.resume();
  req.on('end', () => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    const run = url.searchParams.get('run');
    posts.set(run, (posts.get(run) ?? 0) + 1);
    if (url.searchParams.get('close') === 'rst') req.socket.resetAndDestroy();
    else req.socket.destroy();
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

// The client, as source every runtime runs: `send(url, init)` is its HTTP client.
const CLIENT = `
async function probe(origin, run, close, send) {
  const read = await send(origin + '/read?run=' + run, { method: 'GET' });
  await read.text();
  await new Promise((resolve) => setTimeout(resolve, 20));
  try {
    const res = await send(origin + '/pay?run=' + run + '&close=' + close, {
      method: 'POST', body: '{"amount_cents":100}', headers: { 'content-type': 'application/json' },
    });
    return 'answered ' + res.status;
  } catch (error) {
    return 'failed';
  }
}`;
const fetchMain = `${CLIENT}
const args = globalThis.Deno ? Deno.args : process.argv;
const [origin, run, close, fresh] = args.slice(args.indexOf('PROBE') + 1);
const client = fresh === 'fresh' ? Deno.createHttpClient({ poolMaxIdlePerHost: 0 }) : undefined;
const send = (url, init) => fetch(url, client && init.method === 'POST' ? { ...init, client } : init);
console.log(await probe(origin, run, close, send));`;
const undiciMain = `${CLIENT}
import { Agent, request } from 'undici';
const [origin, run, close] = process.argv.slice(process.argv.indexOf('PROBE') + 1);
const dispatcher = new Agent({ keepAliveTimeout: 4_000 });
const send = async (url, init) => {
  const res = await request(url, { ...init, dispatcher });
  return { status: res.statusCode, text: () => res.body.text() };
};
console.log(await probe(origin, run, close, send));`;
const workerMain = `${CLIENT}
export default {
  async fetch(request) {
    const { origin, run, close } = await request.json();
    return new Response(await probe(origin, run, close, fetch));
  },
};`;
const edgeMain = `${CLIENT}
self.addEventListener('fetch', (event) => {
  event.respondWith(event.request.json().then(({ origin, run, close }) =>
    probe(origin, run, close, fetch).then((r) => new Response(r))));
});`;

const exec = promisify(execFile);
const bin = (name) => join(root, 'node_modules', '.bin', name);
const evalIn = (command, args, version) => ({
  version,
  probe: async (run, close) =>
    (
      await exec(command, [...args, 'PROBE', origin, run, close], { cwd: root, timeout: 30_000 })
    ).stdout.trim(),
});
const nodeFetch = (major) => {
  const node = major === process.versions.node.split('.')[0] ? process.execPath : nodeBinary(major);
  return evalIn(node, ['--input-type=module', '-e', fetchMain], run(node, ['--version'], root).trim());
};
const deno = (fresh) => ({
  version: run(bin('deno'), ['--version'], root).split('\n')[0],
  probe: async (run, close) =>
    (
      await exec(bin('deno'), ['eval', fetchMain, 'PROBE', origin, run, close, fresh ? 'fresh' : ''], {
        cwd: root,
        timeout: 30_000,
      })
    ).stdout.trim(),
});
const pkgVersion = (name) =>
  JSON.parse(run(npm, ['pkg', 'get', 'version'], join(root, 'node_modules', name))).replaceAll('"', '');

const CLIENTS = {
  'Node 20 fetch': nodeFetch('20'),
  'Node 22 fetch': nodeFetch('22'),
  'Node 24 fetch': nodeFetch('24'),
  'Node 26 fetch': nodeFetch('26'),
  'undici request() (Agent)': evalIn(
    process.execPath,
    ['--input-type=module', '-e', undiciMain],
    `undici ${pkgVersion('undici')}`,
  ),
  'Bun fetch': evalIn(bin('bun'), ['-e', fetchMain], `bun ${run(bin('bun'), ['--version'], root).trim()}`),
  'Deno fetch': deno(false),
  'Deno fetch, POST with createHttpClient({ poolMaxIdlePerHost: 0 })': deno(true),
  'workerd fetch': {
    version: `workerd ${run(bin('workerd'), ['--version'], root)
      .trim()
      .replace(/^workerd /, '')}`,
    async probe(run, close) {
      const mf = new Miniflare({ modules: true, script: workerMain, compatibilityDate: '2025-09-01' });
      try {
        const res = await mf.dispatchFetch('http://worker.test/', {
          method: 'POST',
          body: JSON.stringify({ origin, run, close }),
        });
        return await res.text();
      } finally {
        await mf.dispose();
      }
    },
  },
  'Vercel Edge fetch (edge-runtime)': {
    version: `edge-runtime ${pkgVersion('edge-runtime')}`,
    async probe(run, close) {
      const runtime = new EdgeRuntime({ initialCode: edgeMain });
      const res = await runtime.dispatchFetch('http://edge.test/', {
        method: 'POST',
        body: JSON.stringify({ origin, run, close }),
      });
      await res.waitUntil();
      return await res.text();
    },
  },
};

console.log('| Client | Version | POSTs received, RST | POSTs received, FIN | The caller saw |');
console.log('|---|---|---:|---:|---|');
for (const [name, client] of Object.entries(CLIENTS)) {
  const row = [];
  const seen = new Set();
  for (const close of ['rst', 'fin']) {
    const id = `${name}-${close}`;
    let outcome;
    try {
      outcome = await client.probe(id, close);
    } catch (error) {
      outcome = `probe error: ${String(error).split('\n')[0]}`;
    }
    seen.add(outcome);
    row.push(String(posts.get(id) ?? 0));
  }
  console.log(`| ${name} | ${client.version} | ${row.join(' | ')} | ${[...seen].join(', ')} |`);
}
server.close();
server.closeAllConnections();
