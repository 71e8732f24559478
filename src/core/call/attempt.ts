/**
 * One attempt, around the transport's await (which the core makes itself: one async frame less on
 * the hot path): announce it, read the answer, classify what went wrong as data for the retry
 * policy, and announce the retry that follows. Events are built only when someone listens.
 */
import type { z } from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type CallError,
} from '../errors/api-errors.js';
import type { AttemptFailure } from '../limits/retry.js';
import type { EventSink, RequestEvent, RetryReason } from '../observe/events.js';
import type { LogFn } from '../observe/logger.js';
import { classifyFailure, type TransportResponse } from '../transport/transport.js';
import type { RequestSpec, ResponseMeta } from '../types.js';
import type { CallState } from './call-state.js';
import { errorFromResponse, parseSuccess } from './response.js';

/** How an attempt ended. */
export type AttemptResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: CallError; failure: AttemptFailure };

/** What an attempt needs besides the request. */
export interface AttemptContext {
  /** Undefined for exchanges that are not calls (the token grant emits no call events). */
  events: EventSink | undefined;
  log: LogFn | undefined;
}

const REASON: Record<AttemptFailure['kind'], RetryReason> = {
  connect: 'connection',
  sent: 'connection',
  timeout: 'timeout',
  status: 'status',
  invalid_response: 'status',
};

/**
 * Records a retry that follows a failed attempt on the call's state, emits its `retry` event when
 * someone listens, and logs it; the core then waits `delayMs`.
 */
export function announceRetry(
  ctx: AttemptContext,
  spec: RequestSpec,
  state: CallState,
  failure: AttemptFailure,
  error: CallError,
  delayMs: number,
): void {
  const status = failure.kind === 'status' ? failure.status : undefined;
  const retry = { attempt: state.attempts, delayMs, reason: REASON[failure.kind] };
  state.retried(status === undefined ? { ...retry, at: Date.now() } : { ...retry, status, at: Date.now() });
  if (ctx.events?.wants('retry')) {
    const base = { callId: state.callId, method: spec.method, path: spec.path, route: state.route, ...retry };
    ctx.events.emit('retry', status === undefined ? base : { ...base, status });
  }
  ctx.log?.(
    'warn',
    `${spec.method} ${spec.path} failed (${error.message}); retrying in ${delayMs} ms`,
    state.logFields,
  );
}

/** Announces an attempt (a `request` event when someone listens); returns when it started. */
export function announceAttempt(ctx: AttemptContext, spec: RequestSpec, state: CallState): number {
  const { events, log } = ctx;
  const { method, path } = spec;
  const attempt = state.attempts;
  if (events?.wants('request')) {
    const event: RequestEvent = { callId: state.callId, method, path, route: state.route, attempt };
    if (state.rateLimitWaitMs > 0) event.rateLimitWaitMs = state.rateLimitWaitMs;
    events.emit('request', event);
  }
  state.rateLimitWaitMs = 0;
  log?.('debug', `${method} ${path} (attempt ${attempt})`, state.logFields);
  return Date.now();
}

/** What a transport failure means for the call; the caller's abort is thrown as it is. */
export function failedAttempt(
  spec: RequestSpec,
  cause: unknown,
  timeoutMs: number,
  url: string,
): AttemptResult<never> {
  if (spec.options?.signal?.aborted) throw new APIUserAbortError();
  const { method, path } = spec;
  const failure = classifyFailure(cause);
  const code = failure.code ? ` (${failure.code})` : '';
  if (failure.phase === 'timeout') {
    const error = new APIConnectionTimeoutError(
      `${method} ${path} got no complete response within ${timeoutMs} ms${code}.`,
      { cause: failure },
    );
    return { ok: false, error, failure: { kind: 'timeout' } };
  }
  const host = URL.parse(url)?.host ?? url;
  const what =
    failure.phase === 'connect'
      ? `could not connect to ${host}; nothing was sent`
      : `lost the connection to ${host} after the request was sent`;
  const error = new APIConnectionError(`${method} ${path} ${what}${code}.`, { cause: failure });
  return { ok: false, error, failure: { kind: failure.phase } };
}

/** Reads a response that arrived: the data, or the failure as data; fills `meta` on success. */
export function readAttempt<S extends z.ZodType>(
  ctx: AttemptContext,
  spec: RequestSpec<S>,
  state: CallState,
  res: TransportResponse,
  started: number,
  meta: ResponseMeta | undefined,
): AttemptResult<z.infer<S>> {
  const { events, log } = ctx;
  const { method, path } = spec;
  const { status } = res;
  state.status = status;
  if (status >= 200 && status < 300) {
    const parsed = parseSuccess(res, spec.response, spec);
    const requestId = parsed.ok ? parsed.requestId : parsed.error.requestId;
    if (events?.wants('response')) emitResponse(events, spec, state, status, started, requestId);
    log?.('debug', `${method} ${path} -> ${status} (${Date.now() - started} ms)`, state.logFields);
    if (parsed.ok) {
      if (meta) {
        meta.status = status;
        meta.requestId = requestId;
        meta.headers = res.headers;
      }
      return { ok: true, value: parsed.value };
    }
    const failure = { kind: 'invalid_response', status, unreadable: parsed.unreadable } as const;
    return { ok: false, error: parsed.error, failure };
  }
  const error = errorFromResponse(res);
  const durationMs = Date.now() - started;
  if (events?.wants('response')) emitResponse(events, spec, state, status, started, error.requestId);
  log?.(
    'debug',
    `${method} ${path} -> ${status} (${durationMs} ms, request_id ${error.requestId ?? 'none'})`,
    state.logFields,
  );
  return { ok: false, error, failure: { kind: 'status', status, retryAfterMs: error.retryAfterMs } };
}

/** The `response` event of an attempt that got an answer. */
function emitResponse(
  events: EventSink,
  spec: RequestSpec,
  state: CallState,
  status: number,
  started: number,
  requestId: string | undefined,
): void {
  events.emit('response', {
    callId: state.callId,
    method: spec.method,
    path: spec.path,
    route: state.route,
    status,
    attempt: state.attempts,
    durationMs: Date.now() - started,
    requestId,
  });
}
