import { describe, expect, it } from 'vitest';
import {
  type AttemptFailure,
  attemptLimit,
  backoffDelay,
  decideRetry,
  isAmbiguous,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  throttleAfter,
} from '../../src/core/limits/retry.js';
import type { RetryMode } from '../../src/core/types.js';

const status = (s: number, retryAfterMs?: number): AttemptFailure => ({
  kind: 'status',
  status: s,
  retryAfterMs,
});

describe('isRetryable', () => {
  const cases: [string, AttemptFailure, Record<RetryMode, boolean>][] = [
    ['connection never established', { kind: 'connect' }, { safe: true, keyed: true, unsafe: true }],
    ['reset after sending', { kind: 'sent' }, { safe: true, keyed: true, unsafe: false }],
    ['per-attempt timeout', { kind: 'timeout' }, { safe: true, keyed: true, unsafe: false }],
    ['408', status(408), { safe: true, keyed: true, unsafe: false }],
    ['429', status(429), { safe: true, keyed: true, unsafe: true }],
    ['500', status(500), { safe: true, keyed: true, unsafe: false }],
    ['502', status(502), { safe: true, keyed: true, unsafe: false }],
    ['503', status(503), { safe: true, keyed: true, unsafe: false }],
    ['504', status(504), { safe: true, keyed: true, unsafe: false }],
    ['501', status(501), { safe: false, keyed: false, unsafe: false }],
    ['400', status(400), { safe: false, keyed: false, unsafe: false }],
    ['401', status(401), { safe: false, keyed: false, unsafe: false }],
    ['409', status(409), { safe: false, keyed: false, unsafe: false }],
    [
      '2xx JSON of the wrong shape (the same request gets it again)',
      { kind: 'invalid_response', status: 201 },
      { safe: false, keyed: false, unsafe: false },
    ],
    [
      '2xx with an unreadable body (truncated or malformed JSON: a lost answer)',
      { kind: 'invalid_response', status: 201, unreadable: true },
      { safe: true, keyed: true, unsafe: false },
    ],
  ];
  for (const [name, failure, expected] of cases) {
    for (const mode of ['safe', 'keyed', 'unsafe'] as const) {
      it(`${name} in ${mode} mode -> ${expected[mode]}`, () => {
        expect(isRetryable(failure, mode)).toBe(expected[mode]);
      });
    }
  }
});

describe('isAmbiguous', () => {
  const cases: [string, AttemptFailure, boolean][] = [
    ['connect', { kind: 'connect' }, false],
    ['sent', { kind: 'sent' }, true],
    ['timeout', { kind: 'timeout' }, true],
    ['invalid 2xx body', { kind: 'invalid_response', status: 201 }, true],
    ['500', status(500), true],
    ['503', status(503), true],
    ['408', status(408), true],
    ['429', status(429), false],
    ['400', status(400), false],
    ['404', status(404), false],
  ];
  it.each(cases)('%s -> %s', (_name, failure, expected) => {
    expect(isAmbiguous(failure)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-05-12T10:00:00Z');
  const cases: [string | undefined, number | undefined][] = [
    ['2', 2000],
    ['0', 0],
    [' 10 ', 10_000],
    ['1.5', 1500],
    ['Tue, 12 May 2026 10:00:03 GMT', 3000],
    ['Tue, 12 May 2026 09:59:00 GMT', 0],
    ['-5', undefined],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
    ['12', 12_000],
  ];
  it.each(cases)('%j -> %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('backoffDelay (full jitter, 500 ms base, 8 s cap)', () => {
  const cases: [number, number, number][] = [
    [1, 0, 0],
    [1, 0.999, 499],
    [2, 0.5, 500],
    [3, 0.999, 1998],
    [5, 0.999, 7992],
    [10, 0.999, 7992],
    [10, 0.5, 4000],
  ];
  it.each(cases)('retry %i with random %d -> %i ms', (retry, random, expected) => {
    expect(backoffDelay(retry, random)).toBe(expected);
  });
});

describe('decideRetry', () => {
  const base = {
    mode: 'safe' as RetryMode,
    retriesDone: 0,
    maxRetries: 2,
    remainingMs: undefined,
    random: 0.5,
  };
  const cases: [string, Parameters<typeof decideRetry>[0], ReturnType<typeof decideRetry>][] = [
    [
      '503 with backoff',
      { ...base, failure: status(503) },
      { action: 'retry', delayMs: 250, ambiguous: true },
    ],
    [
      '429 waits its Retry-After',
      { ...base, failure: status(429, 2000) },
      { action: 'retry', delayMs: 2000, ambiguous: false },
    ],
    [
      '503 waits its Retry-After',
      { ...base, failure: status(503, 1000) },
      { action: 'retry', delayMs: 1000, ambiguous: true },
    ],
    [
      'Retry-After beyond the deadline throws at once',
      { ...base, failure: status(429, 10_000), remainingMs: 5000 },
      { action: 'throw', outcomeUnknown: false, why: 'wait_exceeds_deadline', ambiguous: false },
    ],
    [
      'Retry-After longer than the SDK waits alone throws',
      { ...base, failure: status(429, MAX_RETRY_AFTER_MS + 1) },
      { action: 'throw', outcomeUnknown: false, why: 'retry_after_too_long', ambiguous: false },
    ],
    [
      'a backoff that would end after the deadline throws',
      { ...base, failure: status(500), remainingMs: 100 },
      { action: 'throw', outcomeUnknown: false, why: 'wait_exceeds_deadline', ambiguous: true },
    ],
    [
      'retries exhausted',
      { ...base, failure: status(503), retriesDone: 2 },
      { action: 'throw', outcomeUnknown: false, why: 'retries_exhausted', ambiguous: true },
    ],
    [
      'maxRetries 0 never retries',
      { ...base, failure: { kind: 'connect' }, maxRetries: 0 },
      { action: 'throw', outcomeUnknown: false, why: 'retries_exhausted', ambiguous: false },
    ],
    [
      'unsafe 500: not retried, outcome unknown',
      { ...base, mode: 'unsafe', failure: status(500) },
      { action: 'throw', outcomeUnknown: true, why: 'not_retryable', ambiguous: true },
    ],
    [
      'unsafe timeout: not retried, outcome unknown',
      { ...base, mode: 'unsafe', failure: { kind: 'timeout' } },
      { action: 'throw', outcomeUnknown: true, why: 'not_retryable', ambiguous: true },
    ],
    [
      'unsafe 2xx unreadable: outcome unknown',
      { ...base, mode: 'unsafe', failure: { kind: 'invalid_response', status: 201 } },
      { action: 'throw', outcomeUnknown: true, why: 'not_retryable', ambiguous: true },
    ],
    [
      'unsafe 429 is retried',
      { ...base, mode: 'unsafe', failure: status(429, 0) },
      { action: 'retry', delayMs: 0, ambiguous: false },
    ],
    [
      'unsafe refused connection is retried',
      { ...base, mode: 'unsafe', failure: { kind: 'connect' } },
      { action: 'retry', delayMs: 250, ambiguous: false },
    ],
    [
      'unsafe 422: a plain error',
      { ...base, mode: 'unsafe', failure: status(422) },
      { action: 'throw', outcomeUnknown: false, why: 'not_retryable', ambiguous: false },
    ],
    [
      'keyed reset is retried',
      { ...base, mode: 'keyed', failure: { kind: 'sent' } },
      { action: 'retry', delayMs: 250, ambiguous: true },
    ],
    [
      'keyed 500 after the last retry: the order may exist, outcome unknown (the error carries the key)',
      { ...base, mode: 'keyed', failure: status(500), retriesDone: 2 },
      { action: 'throw', outcomeUnknown: true, why: 'retries_exhausted', ambiguous: true },
    ],
    [
      'keyed unreadable 2xx is retried with the same key',
      { ...base, mode: 'keyed', failure: { kind: 'invalid_response', status: 201, unreadable: true } },
      { action: 'retry', delayMs: 250, ambiguous: true },
    ],
    [
      'safe unreadable 2xx is retried like a 5xx',
      { ...base, mode: 'safe', failure: { kind: 'invalid_response', status: 200, unreadable: true } },
      { action: 'retry', delayMs: 250, ambiguous: true },
    ],
    [
      'unsafe unreadable 2xx: not retried, outcome unknown',
      { ...base, mode: 'unsafe', failure: { kind: 'invalid_response', status: 201, unreadable: true } },
      { action: 'throw', outcomeUnknown: true, why: 'not_retryable', ambiguous: true },
    ],
    [
      'a refused token: one replay, not a retry (even with no retries left)',
      { ...base, failure: status(401), maxRetries: 0, tokenRejected: true },
      { action: 'replay', ambiguous: false },
    ],
    [
      'a refused token after the replay: a plain error',
      { ...base, failure: status(401), tokenRejected: true, replayed: true },
      { action: 'throw', outcomeUnknown: false, why: 'not_retryable', ambiguous: false },
    ],
    [
      'a 401 the auth strategy cannot cure (client_revoked): no replay',
      { ...base, failure: status(401), tokenRejected: false },
      { action: 'throw', outcomeUnknown: false, why: 'not_retryable', ambiguous: false },
    ],
    [
      'a timeout of an attempt cut short by the deadline ends the call with the deadline',
      { ...base, failure: { kind: 'timeout' }, limitMs: 400, timeoutMs: 30_000 },
      { action: 'throw', outcomeUnknown: false, why: 'deadline', ambiguous: true },
    ],
    [
      'an unsafe call timed out at the deadline: outcome unknown',
      { ...base, mode: 'unsafe', failure: { kind: 'timeout' }, limitMs: 400, timeoutMs: 30_000 },
      { action: 'throw', outcomeUnknown: true, why: 'deadline', ambiguous: true },
    ],
    [
      'a timeout at the full per-attempt timeout is retried as usual',
      { ...base, failure: { kind: 'timeout' }, limitMs: 30_000, timeoutMs: 30_000 },
      { action: 'retry', delayMs: 250, ambiguous: true },
    ],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(decideRetry(input)).toEqual(expected);
  });
});

describe('attemptLimit', () => {
  const cases: [number, number | undefined, number][] = [
    [30_000, undefined, 30_000],
    [30_000, 40_000, 30_000],
    [30_000, 400, 400],
    [30_000, 0, 0],
    [30_000, -5, -5],
  ];
  it.each(cases)('timeout %i, %s ms left -> %i ms', (timeoutMs, remainingMs, expected) => {
    expect(attemptLimit(timeoutMs, remainingMs)).toBe(expected);
  });
});

describe('throttleAfter', () => {
  it('a 429 holds every call back for its Retry-After, or a second without one; nothing else does', () => {
    expect(throttleAfter(status(429, 2500))).toBe(2500);
    expect(throttleAfter(status(429))).toBe(1000);
    expect(throttleAfter(status(503, 2500))).toBeUndefined();
    expect(throttleAfter({ kind: 'timeout' })).toBeUndefined();
  });
});
