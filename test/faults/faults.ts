/**
 * The catalog of injected faults: what each one does to an attempt on the wire, and whether the
 * service acted on the request before misbehaving. "Processed" faults are the worst case for a
 * retry: the order, payment or refund exists although the client saw a failure, so a careless
 * retry would create a second one. The shipped mock plays every fault but `refused` (see
 * {@link mockFault}); processed ones are its after-commit faults (`phase: 'after'`).
 */
import type { FaultSpec } from '../../src/testing/index.js';

export const FAULT_NAMES = [
  'refused',
  'reset_before_response',
  'reset_mid_body',
  'slow',
  'slow_drip',
  'status_500',
  'status_502_html',
  'status_503_retry_after',
  'status_429_seconds',
  'status_429_date',
  'token_expired',
  'malformed_json',
  'truncated_json',
  'unexpected_shape',
  'not_json',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** The error classes a fault can surface as (names exported by the package). */
export type ErrorClassName =
  | 'APIConnectionError'
  | 'APIConnectionTimeoutError'
  | 'InternalServerError'
  | 'RateLimitError'
  | 'AuthenticationError'
  | 'InvalidResponseError';

export interface FaultInfo {
  /** How the fault reads in the docs table. */
  label: string;
  /** Whether the service applied the request's side effect before misbehaving. */
  processed: boolean;
  /** The error a call gets when it is not retried, or when the fault outlasts every retry. */
  error: ErrorClassName;
}

const fault = (label: string, processed: boolean, error: ErrorClassName): FaultInfo => ({
  label,
  processed,
  error,
});

export const FAULTS: Record<FaultName, FaultInfo> = {
  refused: fault('connection refused (closed port)', false, 'APIConnectionError'),
  reset_before_response: fault('connection reset before the response', true, 'APIConnectionError'),
  reset_mid_body: fault('connection dropped in the middle of the body', true, 'APIConnectionError'),
  slow: fault('response slower than the timeout', true, 'APIConnectionTimeoutError'),
  slow_drip: fault('body dripping slower than the timeout', true, 'APIConnectionTimeoutError'),
  status_500: fault('500 `internal_error`', true, 'InternalServerError'),
  status_502_html: fault('502 with an HTML body (proxy)', true, 'InternalServerError'),
  status_503_retry_after: fault('503 with `Retry-After: 0`', true, 'InternalServerError'),
  status_429_seconds: fault('429 with `Retry-After: 0` (seconds)', false, 'RateLimitError'),
  status_429_date: fault('429 with `Retry-After` as an HTTP date (now)', false, 'RateLimitError'),
  token_expired: fault('401 `token_expired`', false, 'AuthenticationError'),
  malformed_json: fault('2xx with malformed JSON', true, 'InvalidResponseError'),
  truncated_json: fault('2xx with truncated JSON (complete response)', true, 'InvalidResponseError'),
  unexpected_shape: fault('2xx JSON of an unexpected shape', true, 'InvalidResponseError'),
  not_json: fault('2xx with `Content-Type: text/html`', true, 'InvalidResponseError'),
};

/** A wait far beyond the tests' client timeouts: with the mock's manual clock it never ends by itself. */
const NEVER_MS = 600_000;

/** What the shipped mock does for each fault (`refused` never reaches it: refused-dispatcher.ts). */
const MOCK_FAULTS: Record<Exclude<FaultName, 'refused'>, () => FaultSpec> = {
  reset_before_response: () => ({ network: true }),
  reset_mid_body: () => ({ body: 'cut' }),
  slow: () => ({ delayMs: NEVER_MS }),
  slow_drip: () => ({ drip: { everyMs: NEVER_MS, chunks: 2 } }),
  status_500: () => ({ status: 500 }),
  status_502_html: () => ({ status: 502, body: 'html' }),
  status_503_retry_after: () => ({ status: 503, retryAfter: 0 }),
  status_429_seconds: () => ({ status: 429, retryAfter: 0 }),
  // A date of now has whole seconds, so it is already past: no wait.
  status_429_date: () => ({ status: 429, retryAfter: new Date().toUTCString() }),
  token_expired: () => ({ status: 401, error: 'token_expired', message: 'The access token has expired' }),
  malformed_json: () => ({ body: { text: '{"status": pending, "amount_cents": }' } }),
  truncated_json: () => ({ body: 'truncated' }),
  unexpected_shape: () => ({ body: { text: JSON.stringify({ data: { id: 42 }, ok: true }) } }),
  not_json: () => ({ body: 'html' }),
};

/**
 * The `failNext` spec that plays `fault` on the first `attempts` attempts of the call `callId`
 * (matched by its `x-call-id` header); processed faults act after the route committed its effect.
 */
export function mockFault(fault: Exclude<FaultName, 'refused'>, callId: string, attempts: number): FaultSpec {
  return {
    ...MOCK_FAULTS[fault](),
    headers: { 'x-call-id': callId },
    phase: FAULTS[fault].processed ? 'after' : 'before',
    times: attempts,
  };
}
