/** The benchmark report: markdown tables, the machine description, and docs/benchmarks.md. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import {
  type BundleSize,
  type ColdStart,
  coldStartGoals,
  type WorkerBundle,
  workerMet,
} from './footprint.js';
import type { MemoryResult } from './memory.js';
import type { MockBenchResult } from './mock.js';
import { renderMock } from './mock-report.js';
import type { PackageSize } from './package-size.js';
import type { RedactionResult } from './redaction.js';
import { formatBytes, formatRate, formatRatio, type Sample } from './stats.js';

/** One figure: the SDK and a baseline measured side by side. */
export interface Comparison {
  figure: string;
  unit: 'req/s' | 'ops/s';
  /** Medians of the SDK's rounds. */
  sdk: Sample;
  baselineName: string;
  /** Medians of the baseline's rounds. */
  baseline: Sample;
  /** The least acceptable sdk/baseline ratio of the rates; 0 for a row shown for context only. */
  goal: number;
  /** Operations per contender (all rounds). */
  requests: number;
}

export interface Report {
  comparisons: Comparison[];
  coldStarts?: ColdStart[];
  bundles?: BundleSize[];
  packages?: PackageSize[];
  workers?: WorkerBundle[];
  memory?: MemoryResult;
  redaction?: RedactionResult;
  mock?: MockBenchResult;
}

export function machine(): string {
  let nproc = String(cpus().length);
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    // nproc is not everywhere; os.cpus() is close enough.
  }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return `${nproc} cores (nproc), ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ${process.platform}/${process.arch}; load average at start ${load}`;
}

/** Whether a comparison met its goal. */
export function met(c: Comparison): boolean {
  return c.sdk.rate / c.baseline.rate >= c.goal;
}

function comparisonTable(rows: Comparison[]): string[] {
  const lines = [
    '| Figure | SDK | Baseline | Ratio | Goal | Met | CPU µs per op, SDK / baseline |',
    '|---|---:|---|---:|---:|---|---:|',
  ];
  for (const c of rows) {
    const base = `${c.baselineName}: ${formatRate(c.baseline.rate)}`;
    const goal = c.goal === 0 ? '(context)' : c.goal === 1 ? 'faster' : `≥ ${formatRatio(c.goal)}`;
    const ratio = formatRatio(c.sdk.rate / c.baseline.rate);
    const cpu = `${c.sdk.cpuUs.toFixed(1)} / ${c.baseline.cpuUs.toFixed(1)}`;
    lines.push(
      `| ${c.figure} | ${formatRate(c.sdk.rate)} | ${base} | ${ratio} | ${goal} | ${c.goal === 0 ? '' : met(c) ? 'yes' : '**no**'} | ${cpu} |`,
    );
  }
  return lines;
}

/** The report as markdown (the part of docs/benchmarks.md a run regenerates). */
export function renderReport(report: Report, command: string): string {
  const out = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}.`,
    '',
    `Command: \`${command}\``,
    '',
    '### Throughput (median of alternating rounds)',
    '',
    ...comparisonTable(report.comparisons),
    '',
    `Operations per contender and figure, by section: ${[...new Set(report.comparisons.map((c) => c.requests))].map((n) => n.toLocaleString('en-US')).join(', ')} (in short alternating rounds, after an uncounted warm-up round).`,
  ];
  if (report.coldStarts) {
    out.push(
      '',
      '### Cold start (median wall time of a fresh process)',
      '',
      '| Command | Wall time | Over `node -e 0` |',
    );
    out.push('|---|---:|---:|');
    for (const c of report.coldStarts) {
      out.push(`| ${c.what} | ${c.medianMs.toFixed(1)} ms | ${c.overheadMs.toFixed(1)} ms |`);
    }
    out.push(
      '',
      "| Entry | Cost over `node -e 0`, as a share of stripe's | Goal | Met |",
      '|---|---:|---:|---|',
    );
    for (const g of coldStartGoals(report.coldStarts)) {
      const goal = g.goal === 0 ? '(reported)' : `≤ ${g.goal.toFixed(2)}`;
      const isMet = g.goal === 0 ? '' : g.ratio <= g.goal ? 'yes' : '**no**';
      out.push(`| \`${g.entry}\` | ${g.ratio.toFixed(2)} | ${goal} | ${isMet} |`);
    }
  }
  if (report.workers) {
    out.push('', '### Cloudflare Workers bundles (esbuild as wrangler bundles, minified)', '');
    out.push('| Worker | Minified | Gzipped | Goal | Met | Bundles without `nodejs_compat` |');
    out.push('|---|---:|---:|---:|---|---|');
    for (const w of report.workers) {
      const goal = [
        w.goal?.atMost !== undefined ? `≤ ${formatBytes(w.goal.atMost)}` : '',
        w.goal?.under !== undefined ? `< ${formatBytes(w.goal.under)}` : '',
        w.goal?.smallerThan ? "and < stripe's" : '',
      ]
        .filter(Boolean)
        .join(' ');
      const met = workerMet(w, report.workers);
      const isMet = met === undefined ? '' : met ? 'yes' : '**no**';
      out.push(
        `| ${w.what} | ${formatBytes(w.minified)} | ${formatBytes(w.gzipped)} | ${goal} | ${isMet} | ${w.withoutNodeCompat ? 'yes' : 'no'} |`,
      );
    }
  }
  if (report.bundles) {
    out.push('', '### Bundle size (esbuild, every export, minified, Node target)', '');
    out.push('| Entry | Minified | Gzipped | Packages bundled |', '|---|---:|---:|---|');
    for (const b of report.bundles) {
      const packages = b.packages.length ? b.packages.join(', ') : 'none';
      out.push(`| \`${b.entry}\` | ${formatBytes(b.minified)} | ${formatBytes(b.gzipped)} | ${packages} |`);
    }
    out.push(
      '',
      '`partner-payments/webhooks` bundles no undici (checked from the esbuild metafile; the run fails otherwise).',
    );
  }
  if (report.packages) {
    out.push('', '### Package size (npm pack; a production install with its dependencies)', '');
    out.push(
      '| Package | Tarball | Unpacked | Files | Source maps | Installed with dependencies | Packages installed |',
      '|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const p of report.packages)
      out.push(
        `| ${p.name} ${p.version} | ${formatBytes(p.tarball)} | ${formatBytes(p.unpacked)} | ${p.files} | ${formatBytes(p.maps)} | ${formatBytes(p.installed)} | ${p.packages} |`,
      );
  }
  if (report.memory) {
    const m = report.memory;
    out.push(
      '',
      `### Memory: heap used after a full GC, every ${(m.requests / (m.samplesMb.length - 1)).toLocaleString('en-US')} requests`,
      '',
    );
    out.push(`Samples (MB): ${m.samplesMb.map((s) => s.toFixed(2)).join(', ')}.`);
    out.push(
      `Growth over ${m.requests.toLocaleString('en-US')} requests through one client: ${m.growthMb.toFixed(2)} MB.`,
    );
    // The figure measured 580 to 660 bytes on Node 20 to 26 (1,150 before keys were kept flat).
    out.push(
      `A key kept by the default intent store: ${Math.round(m.bytesPerKeptIntent)} bytes of heap (goal: under 700).`,
    );
  }
  if (report.redaction) {
    const r = report.redaction;
    const n = r.clients.toLocaleString('en-US');
    out.push(
      '',
      `### Errors with ${n} other clients in the process (${r.errors.toLocaleString('en-US')} of each)`,
      '',
      `| What | One client | With ${n} more clients |`,
      '|---|---:|---:|',
      `| \`new NotFoundError(...)\` | ${r.buildAloneMs.toFixed(1)} ms | ${r.buildCrowdedMs.toFixed(1)} ms |`,
      `| failed \`orders.get\` (404 from an in-process \`fetch\`) | ${r.aloneMs.toFixed(1)} ms | ${r.crowdedMs.toFixed(1)} ms |`,
    );
  }
  if (report.mock) out.push(...renderMock(report.mock));
  return out.join('\n');
}

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces the generated part of docs/benchmarks.md, keeping the hand-written text around it. */
export function writeReport(markdown: string): string {
  const file = new URL('../docs/benchmarks.md', import.meta.url);
  const block = `${START}\n${markdown}\n${END}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  const next =
    from !== -1 && to > from
      ? current.slice(0, from) + block + current.slice(to + END.length)
      : `# Benchmarks\n\n${block}\n`;
  writeFileSync(file, next);
  return file.pathname;
}
