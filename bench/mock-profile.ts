/**
 * Profiles the built mock bin (`--rate-limit off`) under the load of the bench's mock section and
 * prints its CPU per request (from /proc, less sensitive to a busy machine than a rate) and the
 * functions with the most self time in its CPU profile.
 *
 *   npm run build && npx tsx bench/mock-profile.ts read|create [requests=30000] [top=30]
 *   (MOCK_BIN=path/to/mock.js profiles another build of the bin)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { selfTimes } from './cpu-profile.js';
import { throughput } from './stats.js';

const ROOT = new URL('..', import.meta.url).pathname;
const figure = process.argv[2] ?? 'read';
const requests = Number(process.argv[3] ?? 30_000);
const top = Number(process.argv[4] ?? 30);
const dir = join(ROOT, '.tmp', 'mock-prof');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const child = spawn(
  process.execPath,
  [
    '--cpu-prof',
    '--cpu-prof-dir',
    dir,
    process.env.MOCK_BIN ?? process.env.MOCK_BIN ?? join(ROOT, 'dist/cli/mock.js'),
    '--port',
    '0',
    '--rate-limit',
    'off',
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let out = '';
const banner = await new Promise<string>((resolve, reject) => {
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk;
    if (out.includes('Press Ctrl+C')) resolve(out);
  });
  child.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
});
const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(banner)?.[1] ?? '';
const base = field('base URL');
const location = field('\\(payments enabled\\)');
const form = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: field('client id'),
  client_secret: field('client secret'),
});
const minted = await fetch(`${base}/oauth2/token`, { method: 'POST', body: form });
const { access_token: token } = (await minted.json()) as { access_token: string };
const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
const request =
  figure === 'create'
    ? {
        method: 'POST' as const,
        path: '/pos/v1/orders',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ location_id: location, total_cents: 2_500, external_reference: 'LOAD-1' }),
      }
    : { method: 'GET' as const, path: `/pos/v1/locations/${location}`, headers };
const expected = figure === 'create' ? 201 : 200;
const pool = new Pool(base, { connections: 32 });
const call = async () => {
  const { statusCode, body } = await pool.request(request);
  const text = await body.text();
  if (statusCode !== expected) throw new Error(`${statusCode} ${text.slice(0, 200)}`);
};

function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

await throughput(call, 3_000, 32);
const cpuBefore = cpuSeconds(child.pid);
const sample = await throughput(call, requests, 32);
const serverUs = ((cpuSeconds(child.pid) - cpuBefore) * 1e6) / requests;
await pool.close();
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
console.log(
  `${figure}: ${Math.round(sample.rate)}/s, server CPU ${serverUs.toFixed(0)} µs per request, load generator CPU ${sample.cpuUs.toFixed(0)} µs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no CPU profile was written');
const { total, byFunction: self } = selfTimes(join(dir, file), (url) =>
  url ? url.replace(`file://${ROOT}`, '') : 'native',
);
const idle = self.get('(idle) [native]') ?? 0;
console.log(
  `${(total / 1e6).toFixed(2)} s sampled, ${((total - idle) / 1e6).toFixed(2)} s busy; share of busy time:`,
);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  if (key.startsWith('(idle)')) continue;
  console.log(`${`${((100 * us) / (total - idle)).toFixed(1)}%`.padStart(6)}  ${key}`);
}
