/**
 * Middleware: around-functions that wrap every call (not every attempt). A middleware sees the call
 * (method, route, path, call id, the outgoing headers it may change) and decides when to hand it on
 * with `next()`; what `next()` resolves with, or the error it rejects with, is what the caller gets
 * unless the middleware returns or throws something else. The client's tracer runs around them all
 * (a {@link CallTracer}, not a middleware: a call without middleware keeps the direct path).
 */

import { PaymentsError } from '../errors/base-error.js';
import type { RetryReason } from '../observe/events.js';
import type { ResponseMeta } from '../types.js';
import type { APIResponse } from './api-promise.js';

/**
 * One retry of a call, as {@link Call.retries} lists them.
 *
 * @example
 * const slow = (call: Call) => call.retries.filter((r: CallRetry) => r.reason === 'timeout').length;
 */
export interface CallRetry {
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** The wait before the next attempt. */
  delayMs: number;
  reason: RetryReason;
  /** The failed attempt's status, when it got one. */
  status?: number;
  /** When the retry was decided (epoch milliseconds). */
  at: number;
}

/**
 * A call as middleware sees it. It never holds a token: the `Authorization` header is added to
 * each attempt after every middleware ran.
 *
 * @example
 * const tagTenant: Middleware = (call: Call, next) => {
 *   call.headers['x-tenant'] = tenantId;
 *   return next();
 * };
 */
export interface Call {
  /** One id per call, shared by its attempts and by every event it emits. */
  readonly callId: string;
  readonly method: 'GET' | 'POST';
  /** The path template, such as `/pos/v1/orders/{order_id}` (ids left out: low cardinality). */
  readonly route: string;
  /** The path with its ids, without the query string. */
  readonly path: string;
  /**
   * The outgoing headers (lower-case names) sent with every attempt; change them before `next()`.
   * The `Authorization` header is never here.
   */
  readonly headers: Record<string, string>;
  /** The `Idempotency-Key` an order creation sends on every attempt; undefined for other calls. */
  readonly idempotencyKey: string | undefined;
  /** Attempts sent so far (0 before `next()`). */
  readonly attempts: number;
  /** The retries so far, in order. */
  readonly retries: readonly CallRetry[];
}

/**
 * What `next()` resolves with: the call's data with its request id, status and headers (redacted).
 *
 * @example
 * const timing: Middleware = async (call, next) => {
 *   const result: CallResult = await next();
 *   metrics.count('payments.ok', { route: call.route, status: result.status });
 *   return result;
 * };
 */
export type CallResult = APIResponse<unknown>;

/**
 * An around-function run once per call. Call `next()` once to send the call (attempts, token,
 * retries); return its result (or another one), or throw.
 *
 * @example
 * const logCalls: Middleware = async (call, next) => {
 *   const started = Date.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.log(`${call.method} ${call.route} ${Date.now() - started} ms (${call.attempts} attempts)`);
 *   }
 * };
 * const client = new PaymentsClient({ middleware: [logCalls] });
 */
export type Middleware = (call: Call, next: () => Promise<CallResult>) => Promise<CallResult>;

/**
 * Runs `middleware` around `terminal`, the first entry outermost. Each `next()` may be called once.
 */
export function runMiddleware(
  middleware: readonly Middleware[],
  call: Call,
  terminal: () => Promise<CallResult>,
): Promise<CallResult> {
  const step = (index: number): Promise<CallResult> => {
    if (index === middleware.length) return terminal();
    let called = false;
    const next = () => {
      if (called) {
        return Promise.reject(
          new PaymentsError(`Middleware ${index + 1} called next() twice for ${call.method} ${call.route}.`),
        );
      }
      called = true;
      return step(index + 1);
    };
    try {
      return Promise.resolve(middleware[index]!(call, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0);
}

/** A call as the tracer sees it: the core's own call state, whose log lines take the span's ids. */
export type TracedCall = Call & { logFields: { trace_id: string; span_id: string } | undefined };

/**
 * Runs a call's middleware and attempts (`run`) inside the call's span (src/core/observe/tracing.ts).
 * When `run` resolves, `meta.status` is the status of the response that succeeded.
 */
export type CallTracer = (
  call: TracedCall,
  meta: ResponseMeta,
  run: () => Promise<unknown>,
) => Promise<unknown>;
