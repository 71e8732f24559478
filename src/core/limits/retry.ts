/**
 * The retry policy as pure functions: what may be retried for each kind of call, how long to wait,
 * and when to give up. No I/O and no clock of its own (callers pass `now` and a random number), so
 * every rule is checked by a table of cases.
 */
import type { RetryMode } from '../types.js';

/** How one attempt failed. */
export type AttemptFailure =
  /** No connection was established: nothing reached the service. */
  | { kind: 'connect' }
  /** The connection broke after the request may have been sent. */
  | { kind: 'sent' }
  /** No complete response within the per-attempt timeout. */
  | { kind: 'timeout' }
  /** An HTTP error status; `retryAfterMs` from a `Retry-After` header on 429/503. */
  | { kind: 'status'; status: number; retryAfterMs?: number | undefined }
  /**
   * A 2xx whose body is not the documented JSON. `unreadable`: not JSON at all (truncated,
   * malformed, empty), a lost answer; otherwise JSON of the wrong shape or another content type,
   * which the same request would get again.
   */
  | { kind: 'invalid_response'; status: number; unreadable?: boolean | undefined };

/** Statuses worth another attempt: the service (or a proxy) may answer differently next time. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** The longest `Retry-After` waited out when the caller set no deadline. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Backoff bounds: the first retry waits up to `baseMs`, doubling up to `capMs`. */
export const BACKOFF = { baseMs: 500, capMs: 8_000 } as const;

/**
 * Whether another attempt may follow `failure` for a call of this mode.
 * `unsafe` calls (payment and refund creation, no server-side idempotency) are retried only
 * where the request provably was not processed: a 429, or a connection never established.
 * A 2xx whose body is unreadable (truncated or malformed JSON) is retried by `safe` and `keyed` calls.
 */
export function isRetryable(failure: AttemptFailure, mode: RetryMode): boolean {
  switch (failure.kind) {
    case 'connect':
      return true;
    case 'sent':
    case 'timeout':
      return mode !== 'unsafe';
    case 'status':
      if (mode === 'unsafe') return failure.status === 429;
      return RETRYABLE_STATUSES.has(failure.status);
    case 'invalid_response':
      // An unreadable answer is a lost answer: retried like a 5xx where a retry is safe.
      return failure.unreadable === true && mode !== 'unsafe';
  }
}

/**
 * Whether the service may have acted on a request that failed this way: the request was sent and
 * the answer was lost, was a server failure, or could not be read.
 */
export function isAmbiguous(failure: AttemptFailure): boolean {
  switch (failure.kind) {
    case 'connect':
      return false;
    case 'sent':
    case 'timeout':
    case 'invalid_response':
      return true;
    case 'status':
      return failure.status >= 500 || failure.status === 408;
  }
}

/**
 * Parses a `Retry-After` value, either delay-seconds (`"2"`, `"1.5"`) or an HTTP date, into
 * milliseconds from `nowMs`. A date in the past gives 0; anything else unreadable gives undefined.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only a date with letters in it: Date.parse would read "-5" or "12" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Whether a status's `Retry-After` header is honoured (the spec sends it on 429 and 503). */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * Exponential backoff with full jitter: a uniformly random delay between 0 and
 * `min(capMs, baseMs * 2^(retry-1))`. Full jitter spreads many clients that failed together.
 *
 * @param retry 1 for the first retry.
 * @param random a number in [0, 1).
 */
export function backoffDelay(
  retry: number,
  random: number,
  bounds: { baseMs: number; capMs: number } = BACKOFF,
): number {
  const ceiling = Math.min(bounds.capMs, bounds.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(ceiling * Math.min(Math.max(random, 0), 1));
}

/**
 * How long the next attempt may take: the per-attempt timeout, or what is left of the deadline when
 * that is shorter (0 or less: the deadline has passed, no attempt starts).
 */
export function attemptLimit(timeoutMs: number, remainingMs: number | undefined): number {
  return remainingMs !== undefined && remainingMs < timeoutMs ? remainingMs : timeoutMs;
}

/** How long every call of the client holds back after a 429 (the shared limiter's pause). */
export function throttleAfter(failure: AttemptFailure): number | undefined {
  return failure.kind === 'status' && failure.status === 429 ? (failure.retryAfterMs ?? 1000) : undefined;
}

/** The state a retry decision needs. */
export interface RetryInput {
  failure: AttemptFailure;
  mode: RetryMode;
  /** Retries already made (0 after the first attempt failed). */
  retriesDone: number;
  maxRetries: number;
  /** Milliseconds left before the caller's deadline; undefined when there is none. */
  remainingMs: number | undefined;
  /** A number in [0, 1) for the jitter. */
  random: number;
  /**
   * The attempt's time limit and the per-attempt timeout: a timeout of an attempt cut short by the
   * deadline ({@link attemptLimit} below `timeoutMs`) is the deadline's. @default no cut
   */
  limitMs?: number;
  timeoutMs?: number;
  /** The attempt's bearer token was refused (401) and the auth strategy dropped it. @default false */
  tokenRejected?: boolean;
  /** The call already replayed once for a refused token. @default false */
  replayed?: boolean;
}

/** Why a call ends without another attempt. */
export type GiveUp =
  | 'not_retryable'
  | 'retries_exhausted'
  | 'wait_exceeds_deadline'
  | 'retry_after_too_long'
  /** The attempt timed out at the call's deadline: the call ends with the deadline's error. */
  | 'deadline';

/** What to do after a failed attempt. `ambiguous`: this attempt may have been processed. */
export type RetryDecision =
  | { action: 'retry'; delayMs: number; ambiguous: boolean }
  /** A token that expired in flight or was rotated: one fresh token, one replay, not a retry. */
  | { action: 'replay'; ambiguous: boolean }
  | {
      action: 'throw';
      /** The request may have been processed: a `keyed` or `unsafe` call's error says the outcome is unknown. */
      outcomeUnknown: boolean;
      /** Why no retry: the policy, the retry budget, a wait that would not fit, or the deadline. */
      why: GiveUp;
      ambiguous: boolean;
    };

/**
 * Decides what follows a failed attempt: a retry after how long, a replay with a fresh token, or
 * the end of the call (and why). Every rule of the attempt loop is here; the loop only applies it.
 */
export function decideRetry(input: RetryInput): RetryDecision {
  const { failure, mode } = input;
  const ambiguous = isAmbiguous(failure);
  const outcomeUnknown = mode !== 'safe' && ambiguous;
  const timeoutMs = input.timeoutMs;
  if (failure.kind === 'timeout' && timeoutMs !== undefined && (input.limitMs ?? timeoutMs) < timeoutMs)
    return { action: 'throw', outcomeUnknown, why: 'deadline', ambiguous };
  if (input.tokenRejected && !input.replayed) return { action: 'replay', ambiguous };
  if (!isRetryable(failure, mode))
    return { action: 'throw', outcomeUnknown, why: 'not_retryable', ambiguous };
  if (input.retriesDone >= input.maxRetries)
    return { action: 'throw', outcomeUnknown, why: 'retries_exhausted', ambiguous };
  const retryAfter = failure.kind === 'status' ? failure.retryAfterMs : undefined;
  if (retryAfter !== undefined) {
    if (input.remainingMs !== undefined && retryAfter > input.remainingMs) {
      return { action: 'throw', outcomeUnknown, why: 'wait_exceeds_deadline', ambiguous };
    }
    if (input.remainingMs === undefined && retryAfter > MAX_RETRY_AFTER_MS) {
      return { action: 'throw', outcomeUnknown, why: 'retry_after_too_long', ambiguous };
    }
    return { action: 'retry', delayMs: retryAfter, ambiguous };
  }
  const delayMs = backoffDelay(input.retriesDone + 1, input.random);
  if (input.remainingMs !== undefined && delayMs >= input.remainingMs) {
    return { action: 'throw', outcomeUnknown, why: 'wait_exceeds_deadline', ambiguous };
  }
  return { action: 'retry', delayMs, ambiguous };
}
