import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  AuthenticationError,
  type CallError,
  InternalServerError,
  InvalidResponseError,
  PaymentsError,
  RateLimitError,
} from '../../src/index.js';
import { CALL_KINDS, EFFECT_OF, faultHeaders, invoke } from './calls.js';
import { type FaultCase, faultCases, renderFaultTable } from './fault-table.js';
import { type ErrorClassName, FAULTS } from './faults.js';
import { type FaultHarness, type SideEffects, startHarness } from './harness.js';

let harness: FaultHarness;
// No client option shortens the backoff (full jitter, up to 0.5 s then 1 s). Pinning the jitter
// source to 0 makes every backoff 0 ms, so the suite takes seconds; the backoff itself is the retry
// policy's own unit test.
const realRandom = Math.random;
beforeAll(async () => {
  Math.random = () => 0;
  harness = await startHarness();
});
afterAll(async () => {
  Math.random = realRandom;
  await harness.close();
});

const ERROR_CLASSES: Record<ErrorClassName, abstract new (...args: never[]) => PaymentsError> = {
  APIConnectionError,
  APIConnectionTimeoutError,
  InternalServerError,
  RateLimitError,
  AuthenticationError,
  InvalidResponseError,
};
const COUNTERS = ['orders', 'payments', 'refunds', 'voids'] as const;
/**
 * Each attempt's timeout. A healthy loopback answer never meets it, even with five cases at once on a
 * loaded 2-core machine; the `slow` faults, which must meet it, run on fake time (see {@link settle}).
 */
const TIMEOUT_MS = 5_000;
/** Faults whose answer never completes on the mock's manual clock: the client's timeout ends them. */
const SLOW = new Set<string>(['slow', 'slow_drip']);
/** The cases of the table that passed their test above, by name. */
const passed = new Set<string>();
const name = (c: FaultCase) => `${c.fault} on ${c.kind}`;

interface Run {
  result: { id: string } | { error: unknown };
  attempts: number;
  mints: number;
  effects: SideEffects;
}

async function run(c: FaultCase, faultyAttempts: number): Promise<Run> {
  const recorder = harness.client({ timeoutMs: TIMEOUT_MS });
  const callId = randomUUID();
  const ids = await harness.prepare(c.kind, callId);
  harness.inject(c.fault, callId, faultyAttempts);
  const call = invoke(recorder.client, c.kind, ids, {
    headers: faultHeaders(callId, c.fault, faultyAttempts),
  }).then(
    (id) => ({ id }),
    (error: unknown) => ({ error }),
  );
  const result = SLOW.has(c.fault)
    ? await settle(call, { callId, started: recorder.attempts }, faultyAttempts)
    : await call;
  return {
    result,
    attempts: recorder.attempts(),
    mints: recorder.mints(),
    effects: harness.ledger()(ids),
  };
}

/**
 * Drives a `slow` call on fake time (the client's attempt clock reads `Date` and `setTimeout`): the
 * clock jumps one timeout when a faulty attempt reaches the server, and between a timed-out attempt
 * and the start of the next one it steps from timer to timer (the 0 ms backoff, undici's own ticks).
 * While a healthy attempt is in flight it does not move: that attempt never times out, however long
 * the machine takes to answer it, and a faulty one always does, at once.
 */
async function settle<T>(call: Promise<T>, ids: { callId: string; started: () => number }, faulty: number) {
  let done = false;
  void call.finally(() => {
    done = true;
  });
  let timedOut = 0;
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve)); // sockets and the mock run meanwhile
    const arrived = harness.arrivals(ids.callId);
    if (arrived > timedOut && arrived <= faulty) {
      timedOut = arrived;
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS);
    } else if (timedOut > 0 && ids.started() === timedOut) await vi.advanceTimersToNextTimerAsync();
    else await vi.advanceTimersByTimeAsync(0);
  }
  return call;
}

/** The side effects a call left: exactly `expected` of its own kind, none of any other. */
function expectEffects(c: FaultCase, effects: Run['effects'], expected: number, check: typeof expect): void {
  for (const counter of COUNTERS)
    check(effects[counter], counter).toBe(counter === EFFECT_OF[c.kind] ? expected : 0);
  // Every attempt of an order creation carried the same Idempotency-Key.
  if (c.kind === 'orders.create' && effects.attempts > 0) check(effects.idempotencyKeys.size).toBe(1);
}

function expectError(run: Run, c: FaultCase, outcomeUnknown: boolean, check: typeof expect): void {
  check('error' in run.result, `expected ${c.kind} to reject`).toBe(true);
  const error = (run.result as { error: CallError }).error;
  check(error).toBeInstanceOf(PaymentsError);
  check(error.name).toBe(FAULTS[c.fault].error);
  check(error).toBeInstanceOf(ERROR_CLASSES[FAULTS[c.fault].error]);
  check(error.outcomeUnknown).toBe(outcomeUnknown);
}

/** A fault on the first attempt of `c`: the outcome the table gives, and the side effects it allows. */
async function firstAttempt(c: FaultCase, check: typeof expect): Promise<void> {
  const r = await run(c, 1);
  const processed = FAULTS[c.fault].processed;
  if (c.outcome === 'retried') {
    check(r.result).toEqual({ id: expect.any(String) });
    check(r.attempts).toBe(2);
    // The refused attempt never reached the server.
    check(r.effects.attempts).toBe(c.fault === 'refused' ? 1 : 2);
    expectEffects(c, r.effects, EFFECT_OF[c.kind] ? 1 : 0, check);
  } else {
    expectError(r, c, c.outcome === 'unknown', check);
    check(r.attempts).toBe(1);
    expectEffects(c, r.effects, EFFECT_OF[c.kind] && processed ? 1 : 0, check);
  }
  // Only a 401 token_expired costs a second token.
  check(r.mints).toBe(c.fault === 'token_expired' ? 2 : 1);
  passed.add(name(c));
}

/** A token_expired is answered with one new token and one replay, never a loop. */
const attemptsOnEvery = (c: FaultCase) => (c.fault === 'token_expired' ? 2 : 3);

/** A fault on every attempt of `c`, whose first one is retried: the error after the last attempt. */
async function everyAttempt(c: FaultCase, check: typeof expect): Promise<void> {
  const r = await run(c, 99);
  // An order creation whose attempts may have created the order says so (its error has the key).
  expectError(r, c, c.kind === 'orders.create' && FAULTS[c.fault].processed, check);
  check(r.attempts).toBe(attemptsOnEvery(c));
  expectEffects(c, r.effects, EFFECT_OF[c.kind] && FAULTS[c.fault].processed ? 1 : 0, check);
}

const retried = (c: FaultCase) => c.outcome === 'retried';
const everyTitle = (c: FaultCase) =>
  `${name(c)}: ${FAULTS[c.fault].error} after ${attemptsOnEvery(c)} attempts`;

describe.concurrent('a fault on the first attempt (docs/retries.md, fault table)', () => {
  for (const c of faultCases().filter((x) => !SLOW.has(x.fault)))
    it(`${name(c)}: ${c.outcome}`, ({ expect: check }) => firstAttempt(c, check));
});

describe.concurrent('a fault on every attempt, where the first one is retried', () => {
  for (const c of faultCases().filter((x) => retried(x) && !SLOW.has(x.fault)))
    it(everyTitle(c), ({ expect: check }) => everyAttempt(c, check));
});

// One case at a time: fake time is the whole process's.
describe('the slow faults, on fake time (the client times each attempt out)', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });
  for (const c of faultCases().filter((x) => SLOW.has(x.fault))) {
    it(`on the first attempt: ${name(c)}: ${c.outcome}`, () => firstAttempt(c, expect));
    if (retried(c)) it(`on every attempt: ${everyTitle(c)}`, () => everyAttempt(c, expect));
  }
});

describe('the fault table of docs/retries.md', () => {
  it('is the table these tests run (regenerate: npm run gen:fault-table)', () => {
    const doc = readFileSync(new URL('../../docs/retries.md', import.meta.url), 'utf8');
    expect(doc).toContain(renderFaultTable());
    // Every cell of that table was played above and came out as the table says (a case skipped,
    // filtered out or dropped from the runs would leave a cell nothing checks).
    const cells = CALL_KINDS.length * (renderFaultTable().split('\n').length - 2); // less head and rule
    expect([...passed].sort()).toEqual(faultCases().map(name).sort());
    expect(passed.size).toBe(cells);
  });
});
