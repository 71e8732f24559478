/**
 * Runs the benchmarks and writes docs/benchmarks.md.
 *
 *   npm run bench                      the full run (writes the doc)
 *   npm run bench -- --quick           small numbers, a smoke test (prints only)
 *   npm run bench -- --only=http,memory  some sections (prints only)
 *   npm run bench:mock                 the mock section alone (the mock bin against Prism)
 *
 * Sections: package (tarball, unpacked and installed size beside stripe's), http (orders.get and orders.create), intents (payments.create with a key), redis (a keyed call's Redis round trips against a SET NX floor), fleet (tokenStore and rateLimit idle), webhooks, footprint (cold start, bundle size),
 * memory, redaction (errors with 50,000 clients in the process), mock (the mock bin against Prism under
 * load), deno (a connection of its own per charge on Deno); each section's module loads only when it runs. Needs a build (npm run bench builds) and node --expose-gc for the memory section.
 */
import { coldStartGoals, workerMet } from './footprint.js';
import { met, type Report, renderReport, writeReport } from './report.js';

const SECTIONS = [
  'http',
  'intents',
  'redis',
  'fleet',
  'webhooks',
  'footprint',
  'package',
  'memory',
  'redaction',
  'deno',
  'mock',
] as const;
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : [...SECTIONS];
const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
if (unknown.length)
  throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);

const report: Report = { comparisons: [] };
const step = (what: string) => console.error(`[bench] ${what}...`);

if (only.includes('http')) {
  step('request overhead (orders.get, orders.create)');
  const { benchHttp } = await import('./http.js');
  report.comparisons.push(
    ...(await benchHttp(quick ? { perRound: 500, rounds: 2 } : { perRound: 1_000, rounds: 24 })),
  );
}
if (only.includes('intents')) {
  step('exactly-once on the success path (payments.create with a key; memory and Redis intent stores)');
  const { benchIntents } = await import('./intents.js');
  report.comparisons.push(
    ...(await benchIntents(quick ? { perRound: 300, rounds: 2 } : { perRound: 500, rounds: 30 })),
  );
}
if (only.includes('redis')) {
  step(
    'one Redis round trip per keyed call (payments.create on a Redis intent store, beside a SET NX floor)',
  );
  const { benchRedisIntents } = await import('./redis-intents.js');
  report.comparisons.push(
    ...(await benchRedisIntents(quick ? { perRound: 300, rounds: 2 } : { perRound: 500, rounds: 20 })),
  );
}
if (only.includes('fleet')) {
  step('fleet options while idle (orders.get with tokenStore and rateLimit)');
  const { benchFleet } = await import('./fleet.js');
  // Two clients whose difference is about a microsecond: many short alternating rounds, so that this
  // VM's speed drifting within a run reaches both sides alike (rounds of 4,000 gave 71% to 113% for
  // the same build; rounds of 500 keep runs within a few points). The other sections do the same.
  report.comparisons.push(
    ...(await benchFleet(quick ? { perRound: 500, rounds: 2 } : { perRound: 500, rounds: 81 })),
  );
}
if (only.includes('webhooks')) {
  step('verifyWebhook and verifyWebhookAsync');
  const { benchWebhooks } = await import('./webhooks.js');
  report.comparisons.push(
    ...(await benchWebhooks(quick ? { perRound: 2_000, rounds: 2 } : { perRound: 5_000, rounds: 28 })),
  );
}
if (only.includes('deno')) {
  step('payments.create on Deno, a connection of its own per charge');
  const { benchDeno } = await import('./deno.js');
  report.comparisons.push(
    ...(await benchDeno(quick ? { perRound: 50, rounds: 2 } : { perRound: 50, rounds: 60 })),
  );
}
if (only.includes('footprint')) {
  step('cold start and bundle size');
  const { bundleSizes, coldStarts, workerBundles } = await import('./footprint.js');
  report.coldStarts = coldStarts(quick ? 3 : 15);
  report.bundles = await bundleSizes();
  report.workers = await workerBundles();
}
if (only.includes('package')) {
  step('package size (tarball, unpacked, installed with its dependencies), beside stripe');
  const { packageSizes } = await import('./package-size.js');
  report.packages = packageSizes();
}
if (only.includes('memory')) {
  step('memory over 100,000 requests');
  const { benchMemory } = await import('./memory.js');
  report.memory = await benchMemory(quick ? 10_000 : 100_000);
}

if (only.includes('redaction')) {
  step('errors with 50,000 other clients in the process');
  const { benchRedaction } = await import('./redaction.js');
  report.redaction = await benchRedaction(quick ? 5_000 : 50_000, 1_000);
}

if (only.includes('mock')) {
  step('the mock bin against Prism (location read, order creation, concurrency 32)');
  const { benchMock } = await import('./mock.js');
  report.mock = await benchMock(quick ? { perRound: 500, rounds: 2 } : { perRound: 3_000, rounds: 8 });
}

const command = `npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}`;
const markdown = renderReport(report, command);
console.log(markdown);
if (!quick && !onlyArg) console.error(`[bench] wrote ${writeReport(markdown)}`);
const missed = [
  ...report.comparisons.filter((c) => !met(c)).map((c) => `${c.figure} vs ${c.baselineName}`),
  ...(report.coldStarts ? coldStartGoals(report.coldStarts) : [])
    .filter((g) => g.goal > 0 && g.ratio > g.goal)
    .map((g) => `cold import of ${g.entry}`),
  ...(report.workers ?? []).filter((w, _, all) => workerMet(w, all) === false).map((w) => `worker ${w.what}`),
];
if (missed.length) console.error(`[bench] goals missed: ${missed.join('; ')}`);
if (report.mock) {
  const { mockRowMet } = await import('./mock-report.js');
  const mockMissed = report.mock.rows.filter((r) => !mockRowMet(r).rate || !mockRowMet(r).ratio);
  if (mockMissed.length)
    console.error(`[bench] mock goals missed: ${mockMissed.map((r) => r.figure).join('; ')}`);
}
