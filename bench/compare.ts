/**
 * Builds of the package side by side in one run: what a change bought. Each build is a directory
 * holding `node_modules/partner-payments` (a copy of the package.json and dist/ of a build).
 *
 *   node --import tsx bench/compare.ts before=.tmp/steps/0 after=.tmp/steps/1 [--rounds=20]
 *
 * Per build: the Cloudflare Worker of bench/footprint.ts (client + orders.create) gzipped, in bytes
 * and as the difference from the first build; the cold import of the main entry over bare `node` as
 * a share of stripe's (all in rotation, `--imports=N` runs each, 15 by default); and orders.create
 * (20 Level 3 lines, concurrency 1) and orders.get (concurrency 1 and 64) against raw undici, every
 * contender in the same alternating rounds (`--no-http` leaves these out: with many builds, rounds
 * get long and the machine's drift between contenders grows).
 *
 * `--payments` measures `payments.create` instead of the orders calls: the same partner code on
 * every build (`client.payments.create(orderId, { method: 'card', amount_cents })`, no key given, so
 * a build with exactly-once makes and keeps a key per call in its default in-memory intent store), at
 * concurrency 1 and 32, each build as a share of the first one given; and the same call with a key
 * of the caller's (`{ idempotencyKey }`, a new UUID per call), as a partner makes a payment once.
 */

import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { Agent, request } from 'undici';
import { workerdBuild } from '../scripts/ecosystem/targets.mjs';
import { HEADERS, level3Order } from './http.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { alternate, buildsOf, median, type Sample, summarize, throughput } from './stats.js';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 20);
/** Cold imports per build, in rotation (a share of stripe's moves by about ±0.05 at 15). */
const importRuns = Number(args.find((a) => a.startsWith('--imports='))?.slice(10) ?? 15);
const builds = buildsOf(args, 'bench/compare.ts');

const WORKER = `import { PaymentsClient } from 'partner-payments';
export default { async fetch(req, env) {
  const client = new PaymentsClient({ clientId: env.ID, clientSecret: env.SECRET, baseUrl: env.BASE });
  return Response.json(await client.orders.create({ location_id: env.LOCATION, total_cents: 100 }));
} };`;

async function workerGzip(root: string): Promise<number> {
  const result = await build({
    stdin: { contents: WORKER, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    ...workerdBuild(true),
    write: false,
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: '{}',
  });
  // A build directory inside this repository without a package.json of its own would resolve the
  // package by self-reference to this repository's dist/: refuse that.
  const inputs = Object.keys(result.metafile.inputs).map((i) => resolve(i));
  if (!inputs.some((i) => i.startsWith(`${root}/node_modules/partner-payments/`))) {
    throw new Error(
      `${root}: the worker did not bundle ${root}/node_modules/partner-payments (give the directory a package.json)`,
    );
  }
  return gzipSync(result.outputFiles[0]!.contents).byteLength;
}

function wallMs(script: string): number {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`node -e "${script}" failed: ${run.stderr.toString()}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Median cold import of each build's main entry and of stripe, over bare node, in rotation. */
function coldImports(runs: number): { label: string; ms: number }[] {
  const scripts = [
    { label: 'node -e 0', script: '0' },
    ...builds.map((b) => ({
      label: b.label,
      script: `import(${JSON.stringify(`${b.root}/node_modules/partner-payments/dist/index.js`)})`,
    })),
    { label: 'stripe', script: "import('stripe')" },
  ];
  const times = scripts.map(() => [] as number[]);
  for (const s of scripts) wallMs(s.script);
  for (let i = 0; i < runs; i++) {
    for (const [j, s] of scripts.entries()) times[j]!.push(wallMs(s.script));
  }
  const base = median(times[0]!);
  return scripts.slice(1).map((s, j) => ({ label: s.label, ms: median(times[j + 1]!) - base }));
}

const PAYMENT = { method: 'card', amount_cents: 12_500 } as const;

/** `payments.create` on each build at concurrency 1 and 32, in the same alternating rounds. */
async function paymentThroughputs(perRound: number) {
  const server = await startBenchServer();
  const contenders: Record<string, () => Promise<Sample>> = {};
  for (const b of builds) {
    const sdk = await import(`${b.root}/node_modules/partner-payments/dist/index.js`);
    const client = new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: server.url });
    for (const c of [1, 32]) {
      contenders[`${b.label} pay c=${c}`] = () =>
        throughput(() => client.payments.create(ORDER_ID, PAYMENT), perRound, c);
      contenders[`${b.label} keyed c=${c}`] = () =>
        throughput(
          () => client.payments.create(ORDER_ID, PAYMENT, { idempotencyKey: randomUUID() }),
          perRound,
          c,
        );
    }
  }
  try {
    const rates = await alternate(contenders, rounds);
    return Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, summarize(v)]));
  } finally {
    server.stop();
  }
}

async function throughputs(perRound: number) {
  const server = await startBenchServer();
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const payload = level3Order();
  const orderUrl = `${server.url}/pos/v1/orders/${ORDER_ID}`;
  const createUrl = `${server.url}/pos/v1/orders`;
  const contenders: Record<string, () => Promise<Sample>> = {
    'undici create': () =>
      throughput(
        async () => {
          const headers = { ...HEADERS, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
          const res = await request(createUrl, {
            method: 'POST',
            dispatcher: agent,
            headers,
            body: JSON.stringify(payload),
          });
          return res.body.json();
        },
        perRound,
        1,
      ),
  };
  for (const c of [1, 64]) {
    contenders[`undici get c=${c}`] = () =>
      throughput(
        async () => (await request(orderUrl, { dispatcher: agent, headers: HEADERS })).body.json(),
        perRound,
        c,
      );
  }
  for (const b of builds) {
    const sdk = await import(`${b.root}/node_modules/partner-payments/dist/index.js`);
    const client = new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: server.url });
    contenders[`${b.label} create`] = () => throughput(() => client.orders.create(payload), perRound, 1);
    for (const c of [1, 64]) {
      contenders[`${b.label} get c=${c}`] = () => throughput(() => client.orders.get(ORDER_ID), perRound, c);
    }
  }
  try {
    const rates = await alternate(contenders, rounds);
    return Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, summarize(v)]));
  } finally {
    await agent.close();
    server.stop();
  }
}

const stripeWorker = `import Stripe from 'stripe';
export default { async fetch(req, env) {
  const stripe = new Stripe(env.KEY, { httpClient: Stripe.createFetchHttpClient() });
  return Response.json(await stripe.paymentIntents.create({ amount: 100, currency: 'usd' }));
} };`;
const stripeGzip = gzipSync(
  (
    await build({
      stdin: { contents: stripeWorker, resolveDir: process.cwd(), loader: 'js' },
      bundle: true,
      minify: true,
      ...workerdBuild(true),
      write: false,
      logLevel: 'silent',
    })
  ).outputFiles[0]!.contents,
).byteLength;
const workers = await Promise.all(builds.map((b) => workerGzip(b.root)));
const imports = coldImports(importRuns);
const stripeMs = imports.find((i) => i.label === 'stripe')!.ms;
const payments = args.includes('--payments');
const rates = args.includes('--no-http') || payments ? undefined : await throughputs(500);
const paid = payments ? await paymentThroughputs(500) : undefined;
const pct = (a: Sample, b: Sample) => `${((100 * a.rate) / b.rate).toFixed(0)}%`;

const lines = [
  `Builds compared in one run (cold imports: ${importRuns} runs in rotation${rates ? `; HTTP: ${rounds} alternating rounds of 500 calls per contender` : ''}). Command: \`node --import tsx bench/compare.ts ${args.join(' ')}\``,
  '',
  '| Build | Worker, gzipped | Cold import, share of stripe | `orders.create` / raw undici | `orders.get` c=1 / raw undici | `orders.get` c=64 / raw undici |',
  '|---|---:|---:|---:|---:|---:|',
  ...builds.map((b, i) => {
    const r = (k: string) => (rates ? pct(rates[`${b.label} ${k}`]!, rates[`undici ${k}`]!) : '');
    const grew = workers[i]! - workers[0]!;
    const delta = i === 0 ? '' : ` (${grew >= 0 ? '+' : ''}${grew.toLocaleString('en-US')} B)`;
    return `| ${b.label} | ${workers[i]!.toLocaleString('en-US')} B${delta} | ${(imports[i]!.ms / stripeMs).toFixed(2)} | ${r('create')} | ${r('get c=1')} | ${r('get c=64')} |`;
  }),
  `| stripe (comparison) | ${stripeGzip.toLocaleString('en-US')} B | 1.00 (${stripeMs.toFixed(1)} ms) | | | |`,
];
if (paid) {
  const first = builds[0]!.label;
  const cell = (label: string, c: number, call = 'pay') => {
    const s = paid[`${label} ${call} c=${c}`]!;
    return `${Math.round(s.rate).toLocaleString('en-US')}/s (${pct(s, paid[`${first} ${call} c=${c}`]!)})`;
  };
  lines.push(
    '',
    `\`payments.create\`, ${rounds} alternating rounds of 500 calls per contender; each build as a share of ${first}:`,
    '',
    '| Build | c=1 | c=32 | CPU per call, c=1 | with a key, c=1 | with a key, c=32 |',
    '|---|---:|---:|---:|---:|---:|',
    ...builds.map(
      (b) =>
        `| ${b.label} | ${cell(b.label, 1)} | ${cell(b.label, 32)} | ${paid[`${b.label} pay c=1`]!.cpuUs.toFixed(1)} µs | ${cell(b.label, 1, 'keyed')} | ${cell(b.label, 32, 'keyed')} |`,
    ),
  );
}
console.log(lines.join('\n'));
