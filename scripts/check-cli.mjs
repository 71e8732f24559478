// The `partner-payments` bin from the packed tarball (called by check-package.mjs with the scratch
// project): against the installed `partner-payments-mock` (started with --forward-to, so that its
// webhook deliveries reach verify's receiver), `npx partner-payments doctor` passes (exit 0) and
// names a wrong secret (exit 1), and `npx partner-payments verify --webhooks` finds 0 deviations.
// No output holds a secret.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function expect(condition, message) {
  if (!condition) throw new Error(`partner-payments bin: ${message}`);
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the installed mock bin and resolves with its banner once it is up. */
function startMock(scratch, args) {
  const bin = join(scratch, 'node_modules', '.bin', 'partner-payments-mock');
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const banner = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mock did not start:\n${out}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Press Ctrl+C')) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}:\n${out}`)));
  });
  return { child, banner };
}

/** `npx partner-payments ...` in the scratch project, as a partner types it. */
function npxRun(scratch, args, env) {
  const result = spawnSync(npx, ['partner-payments', ...args], {
    cwd: scratch,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the checks against the package installed in `scratch`. */
export async function checkCli(scratch) {
  const version = JSON.parse(
    readFileSync(join(scratch, 'node_modules', 'partner-payments', 'package.json'), 'utf8'),
  ).version;
  const hooks = `http://127.0.0.1:${await freePort()}/webhooks`;
  const mock = startMock(scratch, ['--port', '0', '--no-auto', '--forward-to', hooks]);
  try {
    const text = await mock.banner;
    const field = (label) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';
    const env = {
      PAYMENTS_BASE_URL: field('PAYMENTS_BASE_URL'),
      PAYMENTS_AUTH_URL: field('PAYMENTS_AUTH_URL'),
      PAYMENTS_CLIENT_ID: field('PAYMENTS_CLIENT_ID'),
      PAYMENTS_CLIENT_SECRET: field('PAYMENTS_CLIENT_SECRET'),
      PAYMENTS_WEBHOOK_SECRET: field('PAYMENTS_WEBHOOK_SECRET'),
    };
    expect(
      env.PAYMENTS_WEBHOOK_SECRET.startsWith('whsec_'),
      `no signing secret in the mock's banner:\n${text}`,
    );
    const secrets = [env.PAYMENTS_CLIENT_SECRET, env.PAYMENTS_WEBHOOK_SECRET, 'wrong-secret-from-elsewhere'];
    const clean = (what, result) => {
      const all = result.stdout + result.stderr;
      for (const secret of secrets) expect(!all.includes(secret), `${what} printed a secret`);
      expect(!/eyJ[\w-]+\.[\w-]+\./.test(all), `${what} printed an access token`);
    };

    const shown = npxRun(scratch, ['--version'], {});
    expect(
      shown.code === 0 && shown.stdout.trim() === version,
      `--version printed ${shown.stdout}${shown.stderr}`,
    );

    const good = npxRun(scratch, ['doctor'], env);
    clean('doctor', good);
    expect(
      good.code === 0 && good.stdout.includes('All checks passed.'),
      `doctor exited ${good.code}:\n${good.stdout}${good.stderr}`,
    );
    const wrong = npxRun(scratch, ['doctor'], {
      ...env,
      PAYMENTS_CLIENT_SECRET: 'wrong-secret-from-elsewhere',
    });
    clean('doctor (wrong secret)', wrong);
    expect(
      wrong.code === 1 && /^FAIL +credentials +the token endpoint refused client/m.test(wrong.stdout),
      `doctor with a wrong secret exited ${wrong.code}:\n${wrong.stdout}${wrong.stderr}`,
    );
    console.log(
      'partner-payments bin: npx partner-payments doctor passes against the mock bin (exit 0), names a wrong secret (exit 1)',
    );

    const verify = npxRun(scratch, ['verify', '--webhooks', hooks, '--json'], env);
    clean('verify', verify);
    let doc;
    try {
      doc = JSON.parse(verify.stdout);
    } catch {
      throw new Error(
        `partner-payments bin: verify --json printed no JSON document:\n${verify.stdout}${verify.stderr}`,
      );
    }
    const deviations = doc.items.filter((i) => i.verdict === 'deviation');
    expect(
      verify.code === 0 && doc.summary.deviations === 0,
      `verify exited ${verify.code} with deviations:\n${deviations.map((d) => `${d.section} ${d.title}: ${d.detail}`).join('\n')}`,
    );
    const signed = doc.items.find((i) => i.section === '6.4');
    expect(signed?.verdict === 'ok', `the webhook signature item is ${JSON.stringify(signed)}`);
    const skipped = doc.items.filter((i) => i.verdict === 'skipped').map((i) => i.section);
    console.log(
      `partner-payments bin: npx partner-payments verify --webhooks: ${doc.summary.items} items, ${doc.summary.ok} ok, 0 deviations, ${doc.summary.skipped} skipped (${skipped.join('; ')}; deliveries forwarded by the mock bin)`,
    );
  } finally {
    mock.child.kill('SIGTERM');
  }
}
