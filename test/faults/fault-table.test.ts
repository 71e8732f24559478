import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
// No client option shortens the backoff (full jitter, up to 0.5 s then 1 s), and fake timers would
// also freeze the sockets' timers (the mock's own waits run on its manual clock, which never moves here). Pinning the jitter source to 0 makes every
// backoff 0 ms, so the suite takes seconds; the backoff itself is the retry policy's own unit test.
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
/** Small enough for the `slow` faults to cost little; ample for a loopback answer on a busy 2-core machine. */
const SLOW_TIMEOUT_MS = 400;
/** Faults whose answer never completes on the mock's manual clock: the client's timeout ends them. */
const SLOW = new Set<string>(['slow', 'slow_drip']);

interface Run {
  result: { id: string } | { error: unknown };
  attempts: number;
  mints: number;
  effects: SideEffects;
}

async function run(c: FaultCase, faultyAttempts: number): Promise<Run> {
  const recorder = harness.client({ timeoutMs: SLOW.has(c.fault) ? SLOW_TIMEOUT_MS : 5_000 });
  const callId = randomUUID();
  const ids = await harness.prepare(c.kind, callId);
  harness.inject(c.fault, callId, faultyAttempts);
  const result = await invoke(recorder.client, c.kind, ids, {
    headers: faultHeaders(callId, c.fault, faultyAttempts),
  }).then(
    (id) => ({ id }),
    (error: unknown) => ({ error }),
  );
  return {
    result,
    attempts: recorder.attempts(),
    mints: recorder.mints(),
    effects: harness.ledger()(ids),
  };
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

describe.concurrent('a fault on the first attempt (docs/retries.md, fault table)', () => {
  for (const c of faultCases()) {
    it(`${c.fault} on ${c.kind}: ${c.outcome}`, async ({ expect: check }) => {
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
    });
  }
});

describe.concurrent('a fault on every attempt, where the first one is retried', () => {
  for (const c of faultCases().filter((x) => x.outcome === 'retried')) {
    // A token_expired is answered with one new token and one replay, never a loop.
    const attempts = c.fault === 'token_expired' ? 2 : 3;
    it(`${c.fault} on ${c.kind}: ${FAULTS[c.fault].error} after ${attempts} attempts`, async ({
      expect: check,
    }) => {
      const r = await run(c, 99);
      // An order creation whose attempts may have created the order says so (its error has the key).
      expectError(r, c, c.kind === 'orders.create' && FAULTS[c.fault].processed, check);
      check(r.attempts).toBe(attempts);
      expectEffects(c, r.effects, EFFECT_OF[c.kind] && FAULTS[c.fault].processed ? 1 : 0, check);
    });
  }
});

describe('the fault table of docs/retries.md', () => {
  it('is the table these tests run (regenerate: npx tsx test/faults/write-fault-table.ts)', () => {
    const doc = readFileSync(new URL('../../docs/retries.md', import.meta.url), 'utf8');
    expect(doc).toContain(renderFaultTable());
    expect(faultCases()).toHaveLength(Object.keys(FAULTS).length * CALL_KINDS.length);
  });
});
