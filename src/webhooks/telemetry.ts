// The webhook handler's telemetry (`createWebhookHandler({ tracer, meter })`, api.md 11): a SERVER
// span per delivery, the deliveries counter by outcome and the lag histogram. Types only from core:
// the webhooks entry stays free of any package and small.
import type { PaymentsMeter } from '../core/observe/metrics.js';
import type { PaymentsTracer, SpanStartOptions, TraceSpan } from '../core/observe/tracing.js';
import type { WebhookEvent } from '../schemas/events.js';
import type { Answer } from './handler-io.js';

/** How a delivery ended, as `partner_payments.webhook.outcome` says it. */
export type WebhookOutcome = 'handled' | 'duplicate' | 'rejected' | 'handler_error';

/** Runs one delivery's `receive`, told of the event once it is verified. */
export type Observed = (
  receive: (verified: (event: WebhookEvent) => void) => Promise<Answer>,
) => Promise<Answer>;

// Values of @opentelemetry/api's SpanKind.SERVER and SpanStatusCode.ERROR.
const SPAN_KIND_SERVER = 1;
const STATUS_ERROR = 2;
const LAG_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14400, 86400];

/** What a delivery's answer says of it. */
function outcomeOf(answer: Answer): WebhookOutcome {
  if (answer.status === 200) return answer.body.duplicate ? 'duplicate' : 'handled';
  return answer.status === 400 ? 'rejected' : 'handler_error';
}

/** The telemetry of a handler, or undefined when it has neither a tracer nor a meter. */
export function webhookTelemetry(
  tracer: PaymentsTracer | undefined,
  meter: PaymentsMeter | undefined,
): Observed | undefined {
  if (!tracer && !meter) return undefined;
  const deliveries = meter?.createCounter('partner_payments.webhook.deliveries', {
    unit: '{delivery}',
    description: 'Webhook deliveries received, by outcome.',
  });
  const lag = meter?.createHistogram('partner_payments.webhook.lag', {
    unit: 's',
    description: "From the event's signed occurred_at to its delivery.",
    advice: { explicitBucketBoundaries: LAG_BUCKETS },
  });
  const options: SpanStartOptions = { kind: SPAN_KIND_SERVER, attributes: { 'http.request.method': 'POST' } };

  const run = (span: TraceSpan | undefined, receive: Parameters<Observed>[0]) =>
    receive((event) => {
      span?.setAttribute('partner_payments.event_kind', event.event_kind);
      span?.setAttribute('partner_payments.event_id', event.event_id);
      const occurred = Date.parse(event.occurred_at);
      if (lag && Number.isFinite(occurred))
        lag.record(Math.max(0, Date.now() - occurred) / 1000, {
          'partner_payments.event_kind': event.event_kind,
        });
    }).then((answer) => {
      const outcome = outcomeOf(answer);
      const reason = outcome === 'rejected' ? answer.body.error : undefined;
      if (deliveries)
        deliveries.add(1, {
          'partner_payments.webhook.outcome': outcome,
          ...(reason === undefined ? {} : { 'partner_payments.webhook.reason': reason }),
        });
      if (span) {
        span.setAttribute('partner_payments.webhook.outcome', outcome);
        span.setAttribute('http.response.status_code', answer.status);
        if (reason !== undefined) span.setAttribute('partner_payments.webhook.reason', reason);
        if (answer.status >= 500) span.setStatus({ code: STATUS_ERROR, message: outcome });
        span.end();
      }
      return answer;
    });

  if (!tracer) return (receive) => run(undefined, receive);
  if (typeof tracer.startActiveSpan === 'function') {
    // The partner's handler runs inside the delivery's span: its own spans are children.
    const active = tracer.startActiveSpan.bind(tracer) as (
      name: string,
      options: SpanStartOptions,
      fn: (span: TraceSpan) => Promise<Answer>,
    ) => Promise<Answer>;
    return (receive) => active('POST webhook', options, (span) => run(span, receive));
  }
  return (receive) => run(tracer.startSpan('POST webhook', options), receive);
}
