/** The mock section of docs/benchmarks.md (no load generator imported: the report loads it). */
import type { MockBenchResult, MockRow } from './mock.js';
import { formatRate, formatRatio } from './stats.js';

/** Whether a row met its goals: the rate, and the ratio to Prism where it has one. */
export function mockRowMet(row: MockRow): { rate: boolean; ratio: boolean } {
  return { rate: row.mock.rate >= row.rateGoal, ratio: row.mock.rate / row.prism.rate >= row.ratioGoal };
}

/** The section of docs/benchmarks.md. */
export function renderMock(result: MockBenchResult): string[] {
  const out = [
    '',
    `### The mock under load: \`partner-payments-mock --rate-limit off\` against Prism ${result.prismVersion} (median of alternating rounds)`,
    '',
    `Load average before the section ${result.loadBefore}, after it ${result.loadAfter} (2 cores).`,
    '',
    '| Figure | Mock | Prism | Ratio | Goals | Met | Server CPU µs per request, mock / Prism |',
    '|---|---:|---:|---:|---|---|---:|',
  ];
  for (const row of result.rows) {
    const met = mockRowMet(row);
    const goals = [
      `≥ ${formatRate(row.rateGoal)}`,
      ...(row.ratioGoal ? [`≥ ${formatRatio(row.ratioGoal)} of Prism`] : []),
    ];
    const verdict = [
      met.rate ? 'rate: yes' : 'rate: **no**',
      ...(row.ratioGoal ? [met.ratio ? 'ratio: yes' : 'ratio: **no**'] : []),
    ];
    out.push(
      `| ${row.figure} | ${formatRate(row.mock.rate)} | ${formatRate(row.prism.rate)} | ${formatRatio(row.mock.rate / row.prism.rate)} | ${goals.join(', ')} | ${verdict.join(', ')} | ${row.mock.serverCpuUs.toFixed(0)} / ${row.prism.serverCpuUs.toFixed(0)} |`,
    );
  }
  out.push(
    '',
    `Requests per contender and figure: ${(result.rows[0]?.requests ?? 0).toLocaleString('en-US')}.`,
  );
  return out;
}
