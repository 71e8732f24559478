/**
 * One call's state, shared by its attempts: its id, route, outgoing headers, attempt count and
 * retries. Middleware sees it as a {@link Call}; the core updates it as attempts go.
 */

import { RequestValidationError } from '../errors/api-errors.js';
import type { EndEvent, EventSink } from '../observe/events.js';
import type { RequestSpec, ResponseMeta } from '../types.js';
import type { Call, CallResult, CallRetry } from './middleware.js';

// Call ids: a random prefix per process (two processes' logs do not collide) and a counter.
const PREFIX = Math.floor(Math.random() * 36 ** 4)
  .toString(36)
  .padStart(4, '0');
let counter = 0;
const NO_RETRIES: CallRetry[] = [];

/** The state of one call (what middleware sees, and what the `end` event reports). */
export class CallState implements Call {
  attempts = 0;
  /** Shared and empty until the first retry (no array per call on the hot path). */
  retries: CallRetry[] = NO_RETRIES;
  /** The last response's status. */
  status: number | undefined = undefined;
  /** How long the next attempt waited for the client's rate limit (0 when it did not). */
  rateLimitWaitMs = 0;
  /** The trace and span ids of the call's span, for its log lines (set by the client's tracer). */
  logFields: { trace_id: string; span_id: string } | undefined = undefined;
  readonly startedAt = Date.now();
  readonly #seq = ++counter;
  #callId: string | undefined = undefined;

  /** One id per call, such as `call_k3x9_1a`: formatted when first read (no UUID, no string otherwise). */
  get callId(): string {
    this.#callId ??= `call_${PREFIX}_${this.#seq.toString(36)}`;
    return this.#callId;
  }

  /** Records a retry. */
  retried(retry: CallRetry): void {
    if (this.retries === NO_RETRIES) this.retries = [];
    this.retries.push(retry);
  }

  constructor(
    readonly method: 'GET' | 'POST',
    readonly route: string,
    readonly path: string,
    readonly headers: Record<string, string>,
    readonly idempotencyKey: string | undefined,
  ) {}
}

/** The body as sent: a form, JSON, or none. A value JSON cannot carry is refused before sending. */
export function bodyOf(
  spec: RequestSpec & { form?: Record<string, string> | undefined },
): string | undefined {
  if (spec.form) return new URLSearchParams(spec.form).toString();
  if (spec.json !== undefined) return spec.json;
  if (spec.body === undefined) return undefined;
  try {
    return JSON.stringify(spec.body);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new RequestValidationError(`${spec.method} ${spec.path} body`, [
      { path: [], message: `is not JSON (${why})` },
    ]);
  }
}

/** What `next()` resolves with; its headers are redacted only if a middleware reads them. */
export function callResult(data: unknown, meta: ResponseMeta): CallResult {
  const redact = meta.redactHeaders;
  return {
    data,
    status: meta.status,
    requestId: meta.requestId,
    // Redacted only if a middleware reads it.
    get headers() {
      return redact ? redact(meta.headers) : meta.headers;
    },
  };
}

/** The `end` event of a call. */
export function endEvent(state: CallState, ok: boolean, error: unknown): EndEvent {
  const e: EndEvent = {
    callId: state.callId,
    method: state.method,
    path: state.path,
    route: state.route,
    ok,
    attempts: state.attempts,
    durationMs: Date.now() - state.startedAt,
  };
  const fields = (error ?? {}) as { status?: unknown; code?: unknown; outcomeUnknown?: unknown };
  const status = typeof fields.status === 'number' ? fields.status : state.status;
  if (status !== undefined) e.status = status;
  if (typeof fields.code === 'string') e.code = fields.code;
  if (fields.outcomeUnknown === true) e.outcomeUnknown = true;
  if (!ok) e.errorType = error instanceof Error ? error.name : 'Error';
  return e;
}

/** `data`, emitting the call's `end` event when it settles (a listener may have gone meanwhile). */
export function withEnd<T>(data: Promise<T>, events: EventSink, state: CallState): Promise<T> {
  // Two callbacks, not an async frame (a meter wants every `end`: its figure is measured).
  return data.then(
    (value) => {
      if (events.wants('end')) events.emit('end', endEvent(state, true, undefined));
      return value;
    },
    (error: unknown) => {
      if (events.wants('end')) events.emit('end', endEvent(state, false, error));
      throw error;
    },
  );
}

/** `?a=1&b=2` from the defined query values, or '' when there are none. */
export function queryString(query: RequestSpec['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
