/**
 * The chaos run, longer: npm run soak -- --calls 20000 [--concurrency 32] [--seed 10] [--warmup 2000]
 * [--reconcile auto|off] [--settle 5000] [--max-intents 150] [--fault-rate 0.13]
 * Prints the report; exits 1 when a promise was broken or the clients' heap grew by 5 MB or more
 * (measured with the clients' intent store already at its cap: docs/reliability.md).
 */
import { loadavg } from 'node:os';
import { runChaos } from './harness.js';
import { describe } from './report.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const value = i === -1 ? fallback : Number(args[i + 1]);
  if (!Number.isFinite(value)) throw new Error(`--${name} takes a number`);
  return value;
};
const calls = arg('calls', 20_000);
const concurrency = arg('concurrency', 32);
const seed = arg('seed', 10);
const warmup = arg('warmup', 2_000);
const settleMs = arg('settle', 5_000);
const maxIntents = arg('max-intents', 150);
const faultRate = arg('fault-rate', 0.13);
const at = args.indexOf('--reconcile');
const reconcile = at === -1 ? 'auto' : args[at + 1];
if (reconcile !== 'auto' && reconcile !== 'off') throw new Error("--reconcile takes 'auto' or 'off'");
const LIMIT = 5 * 1_048_576;

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const started = new Date();
console.log(
  `npm run soak -- --calls ${calls} --concurrency ${concurrency} --seed ${seed} --warmup ${warmup} --reconcile ${reconcile} --settle ${settleMs} --max-intents ${maxIntents} --fault-rate ${faultRate}`,
);
console.log(`started ${started.toISOString()}, node ${process.version}, load average ${load()}`);
const result = await runChaos({
  calls,
  concurrency,
  seed,
  warmup,
  reconcile,
  settleMs,
  maxIntents,
  faultRate,
  samples: 10,
  heapSnapshots: process.env.CHAOS_HEAP_SNAPSHOTS,
  onProgress: (done) => {
    if (done % 5000 === 0) console.error(`  ${done} calls`);
  },
});
console.log(`ended ${new Date().toISOString()}, load average ${load()}`);
console.log(describe(result));
const heapOk = result.heap.growthBytes < LIMIT;
console.log(`heap growth under 5 MB: ${heapOk ? 'yes' : 'NO'}`);
if (result.heap.intents.baseline < 0.8 * maxIntents) {
  console.log(
    `the intent store was not full after the warm-up (${result.heap.intents.baseline} of ${maxIntents}): its filling counts as growth; make --warmup longer or --max-intents smaller`,
  );
}
if (result.broken.length > 0 || !heapOk) process.exitCode = 1;
