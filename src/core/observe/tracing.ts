/**
 * The tracer a partner passes (`tracer` option) and the part of OpenTelemetry's span the SDK uses:
 * shapes only. The call's tracing that runs them is core/call/trace.ts; the webhook handler's is
 * webhooks/telemetry.ts.
 *
 * `@opentelemetry/api` is an optional peer: nothing here imports it. Any `Tracer` of it fits.
 */

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

/** What a span and a metric record about the service the client talks to. */
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
