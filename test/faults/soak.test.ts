import { afterAll, beforeAll, expect, it } from 'vitest';
import { PaymentsError } from '../../src/index.js';
import { CALL_KINDS, type CallKind, EFFECT_OF, faultHeaders, invoke } from './calls.js';
import { FAULT_NAMES, type FaultName } from './faults.js';
import { type FaultHarness, startHarness } from './harness.js';

const CALLS = 5_000;
const CONCURRENCY = 50;
const FAULT_RATE = 0.1;
const SEED = 0x5eed;

/** mulberry32: a small seeded generator, so a failing soak replays the same calls. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Plan {
  callId: string;
  kind: CallKind;
  fault: FaultName | undefined;
}

function plan(): Plan[] {
  const random = seeded(SEED);
  return Array.from({ length: CALLS }, (_, i) => ({
    callId: `soak-${i}`,
    kind: CALL_KINDS[Math.floor(random() * CALL_KINDS.length)]!,
    fault: random() < FAULT_RATE ? FAULT_NAMES[Math.floor(random() * FAULT_NAMES.length)] : undefined,
  }));
}

let harness: FaultHarness;
let unhandled = 0;
const onUnhandled = () => {
  unhandled++;
};
beforeAll(async () => {
  harness = await startHarness();
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await harness.close();
});

it(`soak: ${CALLS} mixed calls at concurrency ${CONCURRENCY} with ${FAULT_RATE * 100}% random faults`, async () => {
  // A timeout well above a loopback answer on a 2-core machine shared by parallel runs; the `slow`
  // faults never answer on the mock's manual clock, so each of them costs this long.
  const recorder = harness.client({ timeoutMs: 8_000 });
  const calls = plan();
  // Every call's order, payment or settled payment, set up before the clock of the soak starts.
  const prepared = await Promise.all(calls.map(({ callId, kind }) => harness.prepare(kind, callId)));
  // The first token and a warm JIT, so that the first 50 calls do not all start cold.
  const warmUp = await harness.prepare('orders.get', 'soak-warm-up');
  await invoke(recorder.client, 'orders.get', warmUp, { headers: faultHeaders('soak-warm-up', undefined) });
  const settled: ({ ok: true } | { ok: false; error: unknown })[] = new Array(CALLS);
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    for (let i = next++; i < CALLS; i = next++) {
      const { callId, kind, fault } = calls[i]!;
      harness.inject(fault, callId, 1);
      settled[i] = await invoke(recorder.client, kind, prepared[i]!, {
        headers: faultHeaders(callId, fault),
      }).then(
        () => ({ ok: true }) as const,
        (error: unknown) => ({ ok: false, error }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  // Let any stray rejection surface before counting.
  await new Promise((resolve) => setImmediate(resolve));

  const failures = settled.filter((s) => !s.ok);
  expect(settled.filter(Boolean)).toHaveLength(CALLS);
  for (const failure of failures) expect(failure.error).toBeInstanceOf(PaymentsError);
  expect(unhandled).toBe(0);

  /** The calls whose side effect the mock's records hold more than once (or of another kind). */
  const duplicatesIn = (effectsOf: ReturnType<FaultHarness['ledger']>) =>
    calls.flatMap(({ callId, kind }, i) => {
      const effects = effectsOf(prepared[i]!);
      const counter = EFFECT_OF[kind];
      const total = effects.orders + effects.payments + effects.refunds + effects.voids;
      return total > 1 || (counter && total !== effects[counter]) ? [`${callId} ${kind}`] : [];
    });
  const faultlessFailures: string[] = [];
  const effectsOf = harness.ledger();
  calls.forEach(({ callId, kind, fault }, i) => {
    const counter = EFFECT_OF[kind];
    const outcome = settled[i]!;
    // A call whose side effect is missing although it succeeded would be a lost write.
    if (counter && outcome.ok) expect(effectsOf(prepared[i]!)[counter], callId).toBe(1);
    if (!fault && !outcome.ok) faultlessFailures.push(`${callId} ${kind}: ${String(outcome.error)}`);
  });
  const duplicated = duplicatesIn(effectsOf);
  expect(duplicated).toEqual([]);
  expect(faultlessFailures).toEqual([]);
  // The control: the same check finds planted duplicates, an order and a refund sent again as new
  // calls (a second request, as a careless retry would send; a second payment would exceed the order).
  const planted = (['orders.create', 'refunds.create'] as const)
    .map((kind) => calls.findIndex((c, i) => c.kind === kind && settled[i]!.ok))
    .sort((a, b) => a - b);
  for (const i of planted)
    await invoke(recorder.client, calls[i]!.kind, prepared[i]!, {
      headers: faultHeaders('soak-planted', undefined),
    });
  expect(duplicatesIn(harness.ledger())).toEqual(planted.map((i) => `${calls[i]!.callId} ${calls[i]!.kind}`));

  const faulted = calls.filter((c) => c.fault).length;
  console.log(
    `soak: ${CALLS} calls (${faulted} with a fault) in ${Date.now() - started} ms; ` +
      `${CALLS - failures.length} resolved, ${failures.length} rejected with a PaymentsError, ` +
      `${unhandled} unhandled rejections, ${duplicated.length} duplicated side effects, ` +
      `${recorder.mints()} token mints (the mock minted ${harness.mints})`,
  );
  // One mint at start, one more per token_expired fault (concurrent ones may share a mint).
  const expired = calls.filter((c) => c.fault === 'token_expired').length;
  expect(recorder.mints()).toBeGreaterThanOrEqual(1);
  expect(recorder.mints()).toBeLessThanOrEqual(1 + expired);
  // The soak proves correctness, not speed: 8 parallel test runs on 2 cores make 5000 calls slow.
}, 180_000);
