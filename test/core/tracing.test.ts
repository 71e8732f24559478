import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { caught } from '../helpers/caught.js';
import { LOCATION_ID, ORDER_ID, openOrderBody, orderCreatedBody } from '../helpers/fixtures.js';
import { apiError, sequence, TEST_CLIENT_SECRET, TOKEN_PREFIX } from '../helpers/handlers.js';
import { leaked } from '../helpers/leaks.js';
import { describeTransports } from '../helpers/transports.js';

const order = openOrderBody;

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  vi.restoreAllMocks();
  context.disable();
  await provider.shutdown();
});

const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const traceparentOf = (span: ReadableSpan) => {
  const ctx = span.spanContext();
  return `00-${ctx.traceId}-${ctx.spanId}-0${ctx.traceFlags}`;
};

describeTransports('tracing', (t) => {
  it('one CLIENT span per call with the HTTP conventions; traceparent on every attempt; retries as events', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      sequence('get', '*/pos/v1/orders/:id', [
        () => apiError(503, 'service_unavailable', 'busy', { headers: { 'Retry-After': '0' } }),
        () => HttpResponse.json(order),
      ]),
    );
    const client = t.client({ tracer: provider.getTracer('test') });
    await client.orders.get(ORDER_ID);
    const [span, ...rest] = spans();
    expect(rest).toEqual([]); // no span for the token mint
    expect(span!.name).toBe('GET /pos/v1/orders/{order_id}');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    const url = new URL(t.baseUrl);
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/pos/v1/orders/{order_id}',
      'server.address': url.hostname,
      'server.port': url.port ? Number(url.port) : 443,
      'http.response.status_code': 200,
      'http.request.resend_count': 1,
      'partner_payments.attempts': 2,
      'partner_payments.outcome_unknown': false,
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'partner_payments.retry',
        {
          'partner_payments.attempt': 1,
          'partner_payments.retry.delay_ms': 0,
          'partner_payments.retry.reason': 'status',
          'http.response.status_code': 503,
        },
      ],
    ]);
    const sent = t.requests('GET');
    expect(sent.map((r) => r.headers.traceparent)).toEqual([traceparentOf(span!), traceparentOf(span!)]);
  });

  it('a failed call: ERROR status, error.type, outcome; order creation carries its idempotency key', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', () => apiError(404, 'order_not_found')),
      http.post('*/pos/v1/orders', () => apiError(500, 'internal_error')),
    );
    const client = t.client({ tracer: provider.getTracer('test'), maxRetries: 0 });
    await caught(client.orders.get(ORDER_ID));
    await caught(client.orders.create({ location_id: LOCATION_ID, total_cents: 100 }));
    const [get, create] = spans();
    expect(get!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'NotFoundError (order_not_found)' });
    expect(get!.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': '404',
      'partner_payments.outcome_unknown': false,
    });
    const key = t.requests('POST', '/pos/v1/orders')[0]!.headers['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(create!.name).toBe('POST /pos/v1/orders');
    expect(create!.attributes).toMatchObject({
      'error.type': '500',
      'partner_payments.outcome_unknown': true,
      'partner_payments.idempotency_key': key,
    });
  });

  it('the span is a child of the active span, and no attribute or event holds a secret', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    t.use(
      http.post('*/pos/v1/orders', () =>
        HttpResponse.json(
          { ...orderCreatedBody, hosted_checkout_url: 'https://pay.example.com/c?token=hc_SECRET_1' },
          { status: 201 },
        ),
      ),
    );
    const tracer = provider.getTracer('test');
    const client = t.client({ tracer });
    await tracer.startActiveSpan('checkout', async (parent) => {
      await client.orders.create({
        location_id: LOCATION_ID,
        total_cents: 100,
        return_url: 'https://shop.example.com/r',
        cancel_url: 'https://shop.example.com/c',
      });
      parent.end();
    });
    const [child, parent] = spans();
    expect(child!.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
    const dumped = (attributes: object) =>
      JSON.stringify([attributes, child!.events, child!.status, child!.name]);
    const dump = dumped(child!.attributes);
    expect(dump).toContain('partner_payments.idempotency_key'); // attributes were dumped
    const secrets = [TOKEN_PREFIX, TEST_CLIENT_SECRET, 'hc_SECRET_1', 'hosted'];
    expect(leaked(dump, secrets)).toEqual([]);
    // The control: the same check on the span's attributes with the checkout URL and a token planted.
    const planted = {
      ...child!.attributes,
      'partner_payments.hosted_checkout_url': 'https://pay.example.com/c?token=hc_SECRET_1',
      'http.request.header.authorization': `Bearer ${TOKEN_PREFIX}x`,
    };
    expect(leaked(dumped(planted), secrets)).toEqual([TOKEN_PREFIX, 'hc_SECRET_1', 'hosted']);
  });

  it('a client without a tracer sends no traceparent', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)));
    await t.client().orders.get(ORDER_ID);
    expect(t.requests('GET')[0]!.headers).not.toHaveProperty('traceparent');
    // The same with a tracer does (positive control).
    await t.client({ tracer: trace.getTracer('noop') }).orders.get(ORDER_ID); // no provider: a no-op span
    await t.client({ tracer: provider.getTracer('test') }).orders.get(ORDER_ID);
    const sent = t.requests('GET').map((r) => r.headers.traceparent);
    expect(sent).toEqual([undefined, undefined, expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)]);
  });

  it('sends no traceparent for a tracer whose ids are not lower-case hex (nothing of them reaches a header)', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)));
    const tracerWith = (traceId: string, spanId: string, traceFlags = 1) => ({
      startSpan: () => ({
        spanContext: () => ({ traceId, spanId, traceFlags }),
        setAttribute() {},
        setStatus() {},
        addEvent() {},
        end() {},
      }),
    });
    const good = ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331'] as const;
    for (const [traceId, spanId] of [
      [`${good[0].slice(0, 30)}\r\n`, good[1]],
      [good[0].toUpperCase(), good[1]],
      [good[0], `${good[1]}0`],
    ]) {
      await t.client({ tracer: tracerWith(traceId!, spanId!) }).orders.get(ORDER_ID);
    }
    await t.client({ tracer: tracerWith(good[0], good[1], 0) }).orders.get(ORDER_ID); // positive control
    const sent = t.requests('GET').map((r) => r.headers.traceparent);
    expect(sent).toEqual([undefined, undefined, undefined, `00-${good[0]}-${good[1]}-00`]);
  });
});
