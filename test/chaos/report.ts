/** The chaos run's figures as text: the soak's report and the test's log line. */
import type { ChaosResult } from './harness.js';
import type { KeyedTally } from './intents.js';

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(2)} MB`;

/** Least-squares slope of heap after GC against calls, in bytes per 1,000 calls. */
export function slopePer1k(samples: [number, number][]): number | undefined {
  if (samples.length < 3) return undefined;
  const n = samples.length;
  const mx = samples.reduce((a, [x]) => a + x, 0) / n;
  const my = samples.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of samples) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? undefined : (num / den) * 1000;
}

const share = (n: number, of: number) => `${n}/${of} = ${of === 0 ? 0 : ((n / of) * 100).toFixed(2)}%`;

/** One line per kind of keyed call: how they ended, and the figure `reconcile: 'off'` would give. */
function keyedLine(name: string, t: KeyedTally, mode: string): string {
  const v = t.verdicts;
  const off =
    mode === 'off'
      ? ''
      : `; ${t.reconciled} met an ambiguous failure, which reconcile 'off' leaves outcomeUnknown (${share(t.reconciled, t.calls)}); verdicts: ${v.landed} landed, ${v.not_landed} not landed, ${v.unknown} unknown`;
  const examples = t.unknownExamples.map((line) => `\n  outcomeUnknown: ${line}`).join('');
  return `keyed ${name}: ${t.calls} calls, ${t.ok} returned it (${t.adopted} adopted after a lost answer), ${t.failedKnown} failed with a known outcome, ${t.unknown} outcomeUnknown (${share(t.unknown, t.calls)})${off}${examples}`;
}

/** The checkouts: how the clients' ended (reruns included), what the mock made per key. */
function checkoutLine(r: ChaosResult): string {
  const t = r.checkouts;
  const s = r.server.checkouts;
  const examples = t.unresolvedExamples.map((line) => `\n  unresolved: ${line}`).join('');
  return `checkouts (client.charge, rerun with the same key on every failure, at most 8 runs): ${t.keys} keys, ${t.ok} returned their order and payment, ${t.runs} runs (${t.rerunKeys} keys rerun, at most ${t.maxRuns} runs), ${t.unresolved} unresolved (${t.unresolvedUnknown} outcomeUnknown); per key in the mock's records (warm-up included): ${s.keys} keys, ${s.exactlyOne} with exactly 1 order and 1 payment, most orders of one key ${s.maxOrdersPerKey}, most payments ${s.maxPaymentsPerKey}, ${s.withoutPayment} without a payment; ${s.results} results checked, ${s.wrong} not their key's${examples}`;
}

export function describe(r: ChaosResult): string {
  const o = r.options;
  const p = r.server.proxy;
  const faults = Object.entries(p.faults)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const slope = slopePer1k(r.heap.samples);
  return [
    `seed ${o.seed}, concurrency ${o.concurrency}, fault rate ${o.faultRate}, timeoutMs ${o.timeoutMs}, deadlineMs ${o.deadlineMs} on 1 call in 5 (${o.keyedDeadlineMs} for keyed payments and refunds), margin ${o.marginMs} ms, warm-up ${o.warmup} calls, reconcile '${o.reconcile}', settleMs ${o.settleMs}`,
    `${r.calls} calls in ${(r.durationMs / 1000).toFixed(1)} s (${Math.round((r.calls / r.durationMs) * 1000)}/s): ${r.ok} succeeded, ${r.failed} failed, all with a PaymentsError: ${r.notPaymentsError === 0 ? 'yes' : `no (${r.notPaymentsError} not)`}; ${r.outcomeUnknown} flagged outcomeUnknown`,
    `failures by kind: ${Object.entries(r.failedByKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
    keyedLine('payments', r.keyed.payments, o.reconcile),
    keyedLine('refunds', r.keyed.refunds, o.reconcile),
    `keyed results checked against the mock's records (warm-up included): ${r.server.keyed.results} (${r.server.keyed.adopted} adopted), ${r.server.keyed.wrong} not its own key's; most payments of one key ${r.server.keyed.maxPaymentsPerKey}, most refunds of one key ${r.server.keyed.maxRefundsPerKey}`,
    checkoutLine(r),
    `${p.requests} requests through the proxy, ${p.forwarded} reached the mock, ${p.faulted} faulted: ${faults}`,
    `mock created for the calls: ${r.server.created.orders} orders, ${r.server.created.payments} payments, ${r.server.created.refunds} refunds, ${r.server.created.voids} voids`,
    `attempts (client clock): ${r.attempts.count}, longest ${r.attempts.maxMs} ms against a ${o.timeoutMs} ms timeout; past timeout + ${o.marginMs} ms: ${r.attempts.explained} within the event loop's stalls at the time, ${r.attempts.over} beyond them${r.attempts.over > 0 ? ` (largest overrun net of stalls ${r.attempts.maxUnexplainedMs} ms)` : ''}`,
    `abandoned requests (proxy clock): ${p.abandoned}, held open at most ${p.heldMaxMs} ms; past timeout + ${o.marginMs} ms: ${p.heldOverExplained} within the proxy's stalls at the time, ${p.heldOver} beyond them`,
    `calls with a deadline: ${r.deadlines.calls}, longest ${r.deadlines.maxMs} ms against ${o.deadlineMs} ms (${o.keyedDeadlineMs} ms keyed); past deadline + ${o.marginMs} ms: ${r.deadlines.explained} within stalls, ${r.deadlines.over} beyond them`,
    `event loop: longest stall ${r.clientLoopDelayMaxMs} ms (clients), ${r.server.loopDelayMaxMs} ms (mock and proxy)`,
    `unhandled rejections: ${r.unhandled}`,
    `secrets: ${r.transcript.secretsScanned} known, searched in ${r.transcript.lines} lines of logs (debug), events, errors and inspect output: ${Object.keys(r.transcript.found).length === 0 ? 'none found' : JSON.stringify(r.transcript.found)}; planted secrets found (positive control): ${r.transcript.controlFound ? 'yes' : 'NO'}`,
    `heap (clients' process, after GC): ${mb(r.heap.baselineBytes)} after the warm-up, ${mb(r.heap.afterBytes)} after the calls: growth ${mb(r.heap.growthBytes)}${slope === undefined ? '' : `; slope ${(slope / 1024).toFixed(1)} KB per 1,000 calls over ${r.heap.samples.length} samples`}`,
    `intent store (one MemoryIntentStore for both clients, maxIntents ${o.maxIntents}): ${r.heap.intents.baseline} intents after the warm-up, ${r.heap.intents.after} after the calls, of which ${r.heap.intents.unsettled} open or unknown (kept until settled)`,
    `mock and proxy process heap at the end: ${r.server.heapUsedMB} MB (the mock keeps every order: not the SDK's)`,
    r.broken.length === 0
      ? 'every promise held'
      : `${r.broken.length} broken promises:\n  ${r.broken.join('\n  ')}`,
  ].join('\n');
}
