/**
 * OpenTelemetry tracing around every call: one CLIENT span per call with the stable HTTP semantic
 * conventions, its retries as span events, ERROR status on failure, and the W3C `traceparent` of
 * the span sent on every attempt. The span is the active context while the call runs (the
 * tracer's `startActiveSpan`), and its ids go on the call's log lines.
 *
 * The partner passes a `Tracer` (which starts spans under the active context by itself), and the
 * `traceparent` header is formatted from the span's own context, so a client without a tracer
 * loads no OpenTelemetry code.
 */

import type {
  PaymentsTracer,
  SpanStartOptions,
  TraceAttributeValue,
  TraceSpan,
  TraceTarget,
} from '../observe/tracing.js';
import type { ResponseMeta } from '../types.js';
import type { Call, CallTracer, TracedCall } from './middleware.js';

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
