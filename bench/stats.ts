/** Small helpers shared by the benchmarks: medians, alternating rounds, formatting, arguments. */
import { resolve } from 'node:path';

/**
 * The builds named on a comparison's command line (`label=dir`, each a directory holding
 * `node_modules/partner-payments`); throws the usage line of `script` when none is given.
 */
export function buildsOf(args: readonly string[], script: string): { label: string; root: string }[] {
  const builds = args
    .filter((a) => !a.startsWith('--'))
    .map((a) => {
      const [label, dir] = a.split('=') as [string, string];
      return { label, root: resolve(dir) };
    });
  if (!builds.length) throw new Error(`usage: ${script} label=dir [label=dir ...]`);
  return builds;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One round of one contender: its rate and the CPU time this process spent per operation. */
export interface Sample {
  /** Operations per second (wall clock). */
  rate: number;
  /** Microseconds of CPU (user + system) of this process per operation: less sensitive than the
   * rate to other processes competing for the cores. */
  cpuUs: number;
}

/**
 * Runs every contender once per round, rotating who goes first, so that a machine that speeds up or
 * slows down during the run (another process, a frequency change) affects all of them alike.
 * A first, uncounted round warms the JIT up.
 */
export async function alternate<K extends string>(
  contenders: Record<K, () => Promise<Sample> | Sample>,
  rounds: number,
): Promise<Record<K, Sample[]>> {
  const names = Object.keys(contenders) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as Sample[]])) as Record<K, Sample[]>;
  for (const name of names) await contenders[name]();
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      samples[name].push(await contenders[name]());
    }
  }
  return samples;
}

/** The median rate and the median CPU per operation of a contender's rounds. */
export function summarize(samples: readonly Sample[]): Sample {
  return { rate: median(samples.map((s) => s.rate)), cpuUs: median(samples.map((s) => s.cpuUs)) };
}

/** Starts timing `ops` operations; call the result when they are done. */
export function startSample(ops: number): () => Sample {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  return () => {
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    return { rate: ops / seconds, cpuUs: (cpu.user + cpu.system) / ops };
  };
}

/** Runs `total` calls of `call`, `concurrency` at a time. */
export async function throughput(
  call: () => Promise<unknown>,
  total: number,
  concurrency: number,
): Promise<Sample> {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await call();
    }
  };
  const done = startSample(total);
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return done();
}

export function formatRate(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')}/s`;
}

export function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

export function formatRatio(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}
