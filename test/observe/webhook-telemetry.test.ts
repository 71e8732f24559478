// The webhook handler's telemetry with the real OpenTelemetry SDK (api.md 11): a SERVER span per
// delivery that is the active context of the partner's handler, the deliveries counter for handled,
// duplicate, tampered and failing deliveries, the lag histogram, and no secret anywhere in them.
import { randomUUID } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createWebhookHandler, signWebhookPayload } from '../../src/webhooks/index.js';
import { sampleEvent } from '../webhooks/sample-event.js';

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const SECRET = 'whsec_telemetry_0123456789abcdef';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => context.disable());

it('a span and counts per delivery: handled, duplicate, tampered, handler error; the lag of each event', async () => {
  vi.useFakeTimers({ now: Date.parse('2026-05-12T10:15:42Z'), toFake: ['Date'] });
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('webhooks');
  const inner = tracerProvider.getTracer('partner');
  const handler = createWebhookHandler({
    secret: SECRET,
    tracer: tracerProvider.getTracer('sdk'),
    meter,
    on: {
      'payment.approved': (event) => {
        inner.startSpan('fulfil').end(); // a span of the partner's own, under the delivery's
        if (event.event_id === 'evt_fails') throw new Error('the warehouse is down');
      },
    },
    onError: () => {},
  });
  const deliver = (eventId: string, tamper = false) => {
    const { body, headers } = signWebhookPayload(
      // A payment of its own per event: one transition runs once whatever its event id (api.md 23).
      sampleEvent({ event_id: eventId }, { payment_id: randomUUID() }),
      SECRET,
    );
    const sent = tamper ? body.replace('12500', '99999') : body;
    return handler.fetch(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body: sent }));
  };
  try {
    expect((await deliver('evt_1')).status).toBe(200);
    expect((await deliver('evt_1')).status).toBe(200); // a redelivery
    expect((await deliver('evt_2', true)).status).toBe(400);
    expect((await deliver('evt_fails')).status).toBe(500);
  } finally {
    vi.useRealTimers();
  }

  const spans = exporter.getFinishedSpans();
  const deliveries = spans.filter((s) => s.name === 'POST webhook');
  expect(deliveries.map((s) => s.attributes['partner_payments.webhook.outcome'])).toEqual([
    'handled',
    'duplicate',
    'rejected',
    'handler_error',
  ]);
  expect(deliveries[0]!.kind).toBe(1); // SERVER
  expect(deliveries[0]!.attributes).toEqual({
    'http.request.method': 'POST',
    'partner_payments.event_kind': 'payment.approved',
    'partner_payments.event_id': 'evt_1',
    'partner_payments.webhook.outcome': 'handled',
    'http.response.status_code': 200,
  });
  expect(deliveries[2]!.attributes['partner_payments.webhook.reason']).toBe('signature_mismatch');
  expect(deliveries[2]!.attributes['partner_payments.event_id']).toBeUndefined(); // never verified
  expect(deliveries[3]!.status.code).toBe(2); // ERROR
  expect(deliveries[0]!.status.code).toBe(0);
  const fulfil = spans.filter((s) => s.name === 'fulfil');
  expect(fulfil).toHaveLength(2); // the handled and the failing delivery ran the handler
  expect(fulfil[0]!.parentSpanContext?.spanId).toBe(deliveries[0]!.spanContext().spanId);

  const { resourceMetrics } = await reader.collect();
  const metrics = new Map(
    resourceMetrics.scopeMetrics.flatMap((s) => s.metrics.map((m) => [m.descriptor.name, m])),
  );
  const counted = (metrics.get('partner_payments.webhook.deliveries')!.dataPoints as DataPoint<number>[]).map(
    (p) => [p.attributes, p.value],
  );
  expect(counted).toEqual([
    [{ 'partner_payments.webhook.outcome': 'handled' }, 1],
    [{ 'partner_payments.webhook.outcome': 'duplicate' }, 1],
    [
      {
        'partner_payments.webhook.outcome': 'rejected',
        'partner_payments.webhook.reason': 'signature_mismatch',
      },
      1,
    ],
    [{ 'partner_payments.webhook.outcome': 'handler_error' }, 1],
  ]);
  const lag = metrics.get('partner_payments.webhook.lag')!;
  expect(lag.descriptor.unit).toBe('s');
  const lagPoint = (lag.dataPoints as DataPoint<Histogram>[])[0]!;
  expect(lagPoint.value.count).toBe(3); // the verified deliveries
  expect(lagPoint.value.sum).toBeCloseTo(36, 5); // 12 s each: occurred 10:15:30, delivered 10:15:42

  // Nothing secret: the signing secret and the signature header appear in no attribute (control: a
  // planted header is caught by the same check).
  const { headers } = signWebhookPayload(sampleEvent(), SECRET);
  const signature = Object.values(headers).find((v) => v.includes('='))!;
  const text = JSON.stringify([spans.map((s) => [s.attributes, s.events]), counted]);
  const leaks = (t: string) => [SECRET, signature.split('=').pop()!].filter((s) => t.includes(s));
  expect(leaks(text)).toEqual([]);
  expect(leaks(text + signature)).not.toEqual([]);
});

it('without a tracer or a meter, no span is started and the answers are the same', async () => {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  const handler = createWebhookHandler({ secret: SECRET, on: { 'payment.approved': () => {} } });
  const { body, headers } = signWebhookPayload(sampleEvent(), SECRET);
  const answer = await handler.fetch(
    new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body }),
  );
  expect(answer.status).toBe(200);
  expect(exporter.getFinishedSpans()).toEqual([]);
  trace.disable();
});
