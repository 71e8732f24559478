// Metrics (client option `meter`): the OpenTelemetry instruments of a client, fed by its own events,
// so that a client without a meter builds no event and loads no OpenTelemetry code (api.md 11).
import type { TraceAttributeValue, TraceTarget } from './tracing.js';

/**
 * Attributes of one measurement.
 *
 * @example
 * const attributes: MetricAttributes = { 'url.template': '/pos/v1/orders/{order_id}' };
 */
export type MetricAttributes = Record<string, TraceAttributeValue>;

/**
 * The part of an OpenTelemetry `Meter` the SDK uses: pass `metrics.getMeter('my-service')` (any
 * `Meter` of `@opentelemetry/api` fits).
 *
 * @example
 * import { metrics } from '@opentelemetry/api';
 * const client = new PaymentsClient({ meter: metrics.getMeter('checkout-service') });
 */
export interface PaymentsMeter {
  /** Creates a histogram (durations, waits), with the bucket boundaries advised. */
  createHistogram(
    name: string,
    options?: {
      description?: string;
      unit?: string;
      advice?: { explicitBucketBoundaries?: number[] };
    },
  ): MetricHistogram;
  /** Creates a counter (retries, token mints, reconciliations). */
  createCounter(name: string, options?: { description?: string; unit?: string }): MetricCounter;
}

/**
 * The part of an OpenTelemetry `Histogram` the SDK uses.
 *
 * @example
 * const histogram: MetricHistogram = meter.createHistogram('checkout.duration', { unit: 's' });
 */
export interface MetricHistogram {
  /** Records one value with its attributes. */
  record(value: number, attributes?: MetricAttributes): void;
}

/**
 * The part of an OpenTelemetry `Counter` the SDK uses.
 *
 * @example
 * const counter: MetricCounter = meter.createCounter('checkout.orders');
 */
export interface MetricCounter {
  /** Adds `value` with its attributes. */
  add(value: number, attributes?: MetricAttributes): void;
}

/** The HTTP semantic conventions' advised boundaries for request durations, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Every instrument's name, unit and description (docs/observability.md lists the same). */
export const CLIENT_METRICS = {
  attempt: ['http.client.request.duration', 's', 'Duration of each HTTP attempt of an SDK call.'],
  call: ['partner_payments.call.duration', 's', 'Duration of an SDK call, its retries and waits included.'],
  retries: ['partner_payments.retries', '{retry}', 'Attempts that were retried (429s included).'],
  mints: ['partner_payments.token.mints', '{token}', 'Access tokens minted.'],
  wait: [
    'partner_payments.rate_limit.wait',
    's',
    "Waits for rate limits: the client limiter's and Retry-After.",
  ],
  reconciliations: [
    'partner_payments.reconciliations',
    '{reconciliation}',
    'Lost answers reconciled, by outcome.',
  ],
} as const;

/** The `error.type` of a failure without a response: `timeout`, `connection_error`, else the class. */
function kindOf(errorType: string | undefined): string {
  if (errorType === 'APIConnectionTimeoutError' || errorType === 'timeout') return 'timeout';
  if (errorType === 'APIConnectionError' || errorType === 'connection') return 'connection_error';
  return errorType ?? 'error';
}

/** A call's `error.type`: the status as a string for an HTTP error, else the error's kind. */
function callErrorType(status: number | undefined, errorType: string | undefined): string {
  return status !== undefined && status >= 400 ? String(status) : kindOf(errorType);
}

type Payload = Record<string, unknown>;

/**
 * The instruments of one client and what each event records. Attributes are the method, the route
 * template, the server, statuses and error kinds: never a path with ids, a header or a message.
 */
export class ClientMetrics {
  readonly #attempt;
  readonly #call;
  readonly #retries;
  readonly #mints;
  readonly #wait;
  readonly #reconciliations;
  readonly #server: MetricAttributes;
  /** When each call's current attempt started, until it is answered or the call ends. */
  readonly #open = new Map<string, number>();

  constructor(meter: PaymentsMeter, target: TraceTarget) {
    const histogram = ([name, unit, description]: readonly [string, string, string]) =>
      meter.createHistogram(name, {
        unit,
        description,
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    const counter = ([name, unit, description]: readonly [string, string, string]) =>
      meter.createCounter(name, { unit, description });
    this.#attempt = histogram(CLIENT_METRICS.attempt);
    this.#call = histogram(CLIENT_METRICS.call);
    this.#wait = histogram(CLIENT_METRICS.wait);
    this.#retries = counter(CLIENT_METRICS.retries);
    this.#mints = counter(CLIENT_METRICS.mints);
    this.#reconciliations = counter(CLIENT_METRICS.reconciliations);
    this.#server = { 'server.address': target.address, 'server.port': target.port };
  }

  /** The events the instruments need. */
  static readonly EVENTS: ReadonlySet<string> = new Set([
    'request',
    'response',
    'retry',
    'end',
    'token',
    'reconcile',
  ]);

  /** Records what `payload` of event `name` means for the instruments. */
  record(name: string, payload: Payload): void {
    switch (name) {
      case 'request': {
        this.#open.set(payload.callId as string, Date.now());
        const waited = payload.rateLimitWaitMs as number | undefined;
        if (waited !== undefined) this.#waited(waited, payload, 'client');
        return;
      }
      case 'response': {
        this.#open.delete(payload.callId as string);
        const status = payload.status as number;
        const attributes = this.#attempted(payload);
        attributes['http.response.status_code'] = status;
        if (status >= 400) attributes['error.type'] = String(status);
        this.#attempt.record((payload.durationMs as number) / 1000, attributes);
        return;
      }
      case 'retry': {
        const status = payload.status as number | undefined;
        this.#unanswered(payload, kindOf(payload.reason as string));
        const attributes = this.#attributes(payload);
        attributes['partner_payments.retry.reason'] = payload.reason as string;
        if (status !== undefined) attributes['http.response.status_code'] = status;
        this.#retries.add(1, attributes);
        if (status === 429) this.#waited(payload.delayMs as number, payload, 'retry_after');
        return;
      }
      case 'end': {
        const status = payload.status as number | undefined;
        const errorType = payload.errorType as string | undefined;
        this.#unanswered(payload, kindOf(errorType));
        const attributes = this.#attributes(payload);
        attributes['partner_payments.outcome'] = payload.ok
          ? 'ok'
          : payload.outcomeUnknown
            ? 'outcome_unknown'
            : 'error';
        if (!payload.ok) attributes['error.type'] = callErrorType(status, errorType);
        this.#call.record((payload.durationMs as number) / 1000, attributes);
        return;
      }
      case 'token':
        if (payload.action === 'minted') this.#mints.add(1);
        return;
      case 'reconcile':
        this.#reconciliations.add(1, {
          'partner_payments.outcome': payload.outcome as string,
          'partner_payments.intent_kind': payload.kind as string,
        });
        return;
    }
  }

  /** The attempt of a call that ended without a response, when one was in flight. */
  #unanswered(payload: Payload, errorType: string): void {
    const callId = payload.callId as string;
    const started = this.#open.get(callId);
    if (started === undefined) return;
    this.#open.delete(callId);
    const attributes = this.#attempted(payload);
    attributes['error.type'] = errorType;
    this.#attempt.record((Date.now() - started) / 1000, attributes);
  }

  #waited(ms: number, payload: Payload, source: 'client' | 'retry_after'): void {
    const attributes = this.#attributes(payload);
    attributes['partner_payments.rate_limit.source'] = source;
    this.#wait.record(ms / 1000, attributes);
  }

  /** A call's method and route template. */
  #attributes(payload: Payload): MetricAttributes {
    return { 'http.request.method': payload.method as string, 'url.template': payload.route as string };
  }

  /** An attempt's: the call's, and the server's address and port. */
  #attempted(payload: Payload): MetricAttributes {
    return Object.assign(this.#attributes(payload), this.#server);
  }
}
