/**
 * Instructions a call, counted: `payments.create` with a key (the default in-memory intent store),
 * against the same resource without the intent layer and against the floor (bench/key-floor.ts),
 * each in its own `node --predictable` process under `valgrind --tool=callgrind`, over a `fetch`
 * that answers at once (bench/instructions-target.ts). `--predictable` compiles and collects on the
 * main thread, so a count repeats within about 1%, where this VM's throughput figures move by 15
 * points between runs. A contender runs `low` calls and then `high`: the difference, divided by
 * `high - low`, leaves out start-up and warm-up. Needs valgrind and a build (`npm run build`).
 *
 *   npx tsx bench/instructions.ts [concurrency=32] [low=4000] [high=14000]
 */
import { spawnSync } from 'node:child_process';

const [concurrency = 32, low = 4_000, high = 14_000] = process.argv.slice(2).map(Number);
const target = new URL('./instructions-target.ts', import.meta.url).pathname;

/** The instructions (callgrind's `Ir`) of one process running `calls` calls of `mode`. */
function instructions(mode: string, calls: number): number {
  const node = [
    process.execPath,
    '--predictable',
    '--import',
    'tsx',
    target,
    mode,
    String(calls),
    String(concurrency),
  ];
  const run = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', ...node], {
    encoding: 'utf8',
  });
  const count = /Collected : (\d+)/.exec(run.stderr ?? '')?.[1];
  if (run.status !== 0 || count === undefined)
    throw new Error(`valgrind ${mode} ${calls}: exit ${run.status}\n${run.stderr?.slice(-2000)}`);
  return Number(count);
}

const perCall: Record<string, number> = {};
for (const mode of ['plain', 'keyed', 'floor']) {
  perCall[mode] = (instructions(mode, high) - instructions(mode, low)) / (high - low);
  console.error(`[instructions] ${mode}: ${Math.round(perCall[mode]).toLocaleString('en-US')} a call`);
}
const plain = perCall.plain as number;
console.log(
  `payments.create, concurrency ${concurrency}, calls ${low} to ${high}, instructions a call (node --predictable under callgrind):`,
);
for (const [mode, n] of Object.entries(perCall))
  console.log(
    `  ${mode.padEnd(6)} ${Math.round(n).toLocaleString('en-US').padStart(9)}  ${((100 * n) / plain).toFixed(1)}% of plain`,
  );
