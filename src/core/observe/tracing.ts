/**
 * OpenTelemetry tracing around every call: one CLIENT span per call with the stable HTTP semantic
 * conventions, its retries as span events, ERROR status on failure, and the W3C `traceparent` of
 * the span sent on every attempt. The span is the active context while the call runs (the
 * tracer's `startActiveSpan`), and its ids go on the call's log lines.
 *
 * `@opentelemetry/api` is an optional peer: nothing here imports it. The partner passes a `Tracer`
 * (which starts spans under the active context by itself), and the `traceparent` header is
 * formatted from the span's own context, so a client without a tracer loads no OpenTelemetry code.
 */

import type { Call, CallTracer, TracedCall } from '../call/middleware.js';
import type { ResponseMeta } from '../types.js';

/**
 * An attribute value, as OpenTelemetry defines it.
 *
 * @example
 * const value: TraceAttributeValue = 'GET';
 */
export type TraceAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/**
 * The part of an OpenTelemetry `Span` the client uses (any `Span` of `@opentelemetry/api` fits).
 *
 * @example
 * const span: TraceSpan = trace.getTracer('checkout').startSpan('checkout');
 */
export interface TraceSpan {
  /** The span's ids, written into the `traceparent` (and `tracestate`) header of every attempt. */
  spanContext(): {
    traceId: string;
    spanId: string;
    traceFlags: number;
    traceState?:
      | {
          /** The `tracestate` header value. */
          serialize(): string;
        }
      | undefined;
  };
  /** Sets one attribute (`http.request.method`, `url.template`, ...). */
  setAttribute(key: string, value: TraceAttributeValue): unknown;
  /** Records an event on the span (a retry, with its delay and reason). */
  addEvent(name: string, attributes?: Record<string, TraceAttributeValue>, time?: number): unknown;
  /** Marks the span failed (code 2, `ERROR`) with the error's message. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span when the call ends. */
  end(): void;
}

/**
 * The part of an OpenTelemetry `Tracer` the client uses: pass `trace.getTracer('my-service')`.
 *
 * @example
 * import { trace } from '@opentelemetry/api';
 * const tracer: PaymentsTracer = trace.getTracer('checkout-service');
 * const client = new PaymentsClient({ tracer });
 */
export interface PaymentsTracer {
  /** Starts the CLIENT span of one call (used when the tracer has no `startActiveSpan`). */
  startSpan(name: string, options?: SpanStartOptions): TraceSpan;
  /**
   * Starts the span and runs `fn` with it as the active context (every OpenTelemetry `Tracer` has
   * it): the call's attempts, the middleware below the tracer and an HTTP auto-instrumentation's
   * spans are then its children, wherever a context manager is registered.
   * @typeParam F The function run with the span; its result is returned.
   */
  startActiveSpan?<F extends (span: TraceSpan) => unknown>(
    name: string,
    options: SpanStartOptions,
    fn: F,
  ): ReturnType<F>;
}

/**
 * The options the SDK starts a span with.
 *
 * @example
 * const options: SpanStartOptions = { kind: 2, attributes: { 'http.request.method': 'GET' } };
 */
export interface SpanStartOptions {
  kind?: number;
  attributes?: Record<string, TraceAttributeValue>;
}

// Values of @opentelemetry/api's SpanKind.CLIENT and SpanStatusCode.ERROR (stable since 1.0).
const SPAN_KIND_CLIENT = 2;
const STATUS_ERROR = 2;
const INVALID_TRACE_ID = '00000000000000000000000000000000';

/** A `traceparent` of version 00 whose ids are lower-case hex of the right length. */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const INVALID_SPAN_ID = '0000000000000000';

/**
 * The W3C `traceparent` of a span context, or undefined for one with no valid ids (a no-op
 * tracer's). One test of the whole header: a tracer's ids never reach a header unchecked.
 */
function traceparentOf(ctx: ReturnType<TraceSpan['spanContext']>): string | undefined {
  const flags = ctx.traceFlags & 0xff;
  const header = `00-${ctx.traceId}-${ctx.spanId}-${flags < 16 ? '0' : ''}${flags.toString(16)}`;
  if (!TRACEPARENT.test(header) || ctx.traceId === INVALID_TRACE_ID || ctx.spanId === INVALID_SPAN_ID)
    return undefined;
  return header;
}

/** What the span records about the service it talks to. */
export interface TraceTarget {
  /** `server.address`: the base URL's host name. */
  address: string;
  /** `server.port`: the base URL's port (443 or 80 when it names none). */
  port: number;
}

/** The `server.address` and `server.port` of a base URL. */
export function traceTarget(baseUrl: string): TraceTarget {
  const url = new URL(baseUrl);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { address: url.hostname.replace(/^\[|\]$/g, ''), port };
}

interface ErrorFields {
  name?: unknown;
  status?: unknown;
  code?: unknown;
  outcomeUnknown?: unknown;
}

/**
 * What traces every call with `tracer`, around its middleware and attempts. Attributes hold no
 * secret: no header, no query string, no body, no hosted-checkout URL, no error message (only its
 * class and code).
 */
export function callTracer(tracer: PaymentsTracer, target: TraceTarget): CallTracer {
  const name = (call: Call) => `${call.method} ${call.route}`;
  const options = (call: Call): SpanStartOptions => ({
    kind: SPAN_KIND_CLIENT,
    attributes: {
      'http.request.method': call.method,
      'url.template': call.route,
      'server.address': target.address,
      'server.port': target.port,
    },
  });
  if (typeof tracer.startActiveSpan === 'function') {
    const active = tracer.startActiveSpan.bind(tracer) as (
      name: string,
      options: SpanStartOptions,
      fn: (span: TraceSpan) => Promise<unknown>,
    ) => Promise<unknown>;
    return (call, meta, run) => active(name(call), options(call), (span) => traced(span, call, meta, run));
  }
  return (call, meta, run) => traced(tracer.startSpan(name(call), options(call)), call, meta, run);
}

/**
 * Runs the call under its span. Not an async function: two callbacks on `run()`'s promise cost
 * less per call than an async frame with try/finally (the tracer's figure is measured).
 */
function traced(
  span: TraceSpan,
  call: TracedCall,
  meta: ResponseMeta,
  run: () => Promise<unknown>,
): Promise<unknown> {
  const ctx = span.spanContext();
  const header = traceparentOf(ctx);
  if (header !== undefined) {
    call.headers.traceparent = header;
    const state = ctx.traceState?.serialize();
    if (state) call.headers.tracestate = state;
    // The call's log lines carry its trace.
    call.logFields = {
      trace_id: ctx.traceId,
      span_id: ctx.spanId,
    };
  }
  if (call.idempotencyKey !== undefined) {
    span.setAttribute('partner_payments.idempotency_key', call.idempotencyKey);
  }
  return run().then(
    (data) => {
      span.setAttribute('http.response.status_code', meta.status);
      span.setAttribute('partner_payments.outcome_unknown', false);
      endSpan(span, call);
      return data;
    },
    (error: unknown) => {
      const fields = (typeof error === 'object' && error !== null ? error : {}) as ErrorFields;
      const status = typeof fields.status === 'number' ? fields.status : undefined;
      const name = typeof fields.name === 'string' ? fields.name : 'Error';
      const code = typeof fields.code === 'string' ? fields.code : undefined;
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      span.setAttribute('error.type', status !== undefined && status >= 400 ? String(status) : name);
      span.setAttribute('partner_payments.outcome_unknown', fields.outcomeUnknown === true);
      span.setStatus({ code: STATUS_ERROR, message: code ? `${name} (${code})` : name });
      endSpan(span, call);
      throw error;
    },
  );
}

/** The attempts and retries of a call that ended, then the end of its span. */
function endSpan(span: TraceSpan, call: Call): void {
  span.setAttribute('partner_payments.attempts', call.attempts);
  if (call.attempts > 1) span.setAttribute('http.request.resend_count', call.attempts - 1);
  for (const retry of call.retries) {
    const attributes: Record<string, TraceAttributeValue> = {
      'partner_payments.attempt': retry.attempt,
      'partner_payments.retry.delay_ms': retry.delayMs,
      'partner_payments.retry.reason': retry.reason,
    };
    if (retry.status !== undefined) attributes['http.response.status_code'] = retry.status;
    span.addEvent('partner_payments.retry', attributes, retry.at);
  }
  span.end();
}
