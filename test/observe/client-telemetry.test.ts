// Telemetry of the client with the real OpenTelemetry SDK (api.md 11): the call's span is the active
// context of its attempts (an undici auto-instrumentation's span and a partner middleware's span are
// its children), the metrics of a scripted run (names, units, attributes, counts), and the trace ids
// on the call's log lines. The mock serves over loopback on the default (undici) transport.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, type Span, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Middleware, PaymentsClient, SCOPES } from '../../src/index.js';
import { loopbackMock, throughFetch } from '../helpers/loopback-mock.js';

/** A reader the test collects from when it wants (no export timer). */
class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const undici = new UndiciInstrumentation();

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  undici.setTracerProvider(tracerProvider);
  undici.enable();
});
afterAll(() => {
  undici.disable();
  context.disable();
  propagation.disable();
});
const loop = loopbackMock({ front: throughFetch });
const { mock } = loop;
beforeEach(() => {
  exporter.reset();
});

function client(extra: ConstructorParameters<typeof PaymentsClient>[0] = {}) {
  return new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    ...extra,
  });
}

describe('the call span is the active context of its attempts', () => {
  it("an undici span and a partner middleware's span are children of the call's span", async () => {
    const tracer = tracerProvider.getTracer('partner');
    const middleware: Middleware = (_call, next) =>
      tracer.startActiveSpan('partner middleware', (span: Span) => next().finally(() => span.end()));
    const c = client({ tracer: tracerProvider.getTracer('sdk'), middleware: [middleware] });
    const location = mock.fixtures.partners[0]!.locations.payments;
    await c.locations.get(location); // mints the token first: its exchange is no call
    exporter.reset();
    await c.locations.get(location);
    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'GET /pos/v1/locations/{location_id}');
    const partner = spans.find((s) => s.name === 'partner middleware');
    const http = spans.filter((s) => s.instrumentationScope.name.includes('undici'));
    expect(call).toBeDefined();
    expect(partner?.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
    expect(http).toHaveLength(1);
    // The undici span runs below the middleware, inside the call's trace.
    expect(http[0]!.spanContext().traceId).toBe(call!.spanContext().traceId);
    expect(http[0]!.parentSpanContext?.spanId).toBe(partner!.spanContext().spanId);
  });

  it('without a middleware the undici span is a direct child of the call span', async () => {
    const c = client({ tracer: tracerProvider.getTracer('sdk') });
    const location = mock.fixtures.partners[0]!.locations.payments;
    await c.locations.get(location);
    exporter.reset();
    await c.locations.get(location);
    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name.startsWith('GET /pos'));
    const http = spans.find((s) => s.instrumentationScope.name.includes('undici'));
    expect(http?.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
  });

  it("one traceparent goes out, the undici span's (the call's own is left to the instrumentation); without a listener, the call's", async () => {
    const seen: (string | undefined)[][] = [];
    const raw = createServer((req, res) => {
      seen.push(
        req.rawHeaders.flatMap((h, i) => (h.toLowerCase() === 'traceparent' ? [req.rawHeaders[i + 1]] : [])),
      );
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    const c = new PaymentsClient({
      accessToken: 'token-1',
      baseUrl,
      tracer: tracerProvider.getTracer('sdk'),
    });
    const read = () => c.request({ method: 'GET', path: '/x', retry: 'safe', response: z.looseObject({}) });
    try {
      await read();
      const spans = exporter.getFinishedSpans();
      const http = spans.find((s) => s.instrumentationScope.name.includes('undici'))!;
      expect(seen[0]).toEqual([`00-${http.spanContext().traceId}-${http.spanContext().spanId}-01`]);
      undici.disable(); // no listener on undici's channel: the call's own header goes out
      exporter.reset();
      await read();
      const call = exporter.getFinishedSpans()[0]!;
      expect(seen[1]).toEqual([`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`]);
    } finally {
      undici.enable();
      raw.close();
    }
  });

  it("the call's log lines carry its trace_id and span_id, as fields after the message (winston) or before it (pino)", async () => {
    const lines: unknown[][] = [];
    const logger = {
      debug: (...args: unknown[]) => lines.push(args),
      info: (...args: unknown[]) => lines.push(args),
      warn: (...args: unknown[]) => lines.push(args),
      error: (...args: unknown[]) => lines.push(args),
    };
    const c = client({ tracer: tracerProvider.getTracer('sdk'), logger, logLevel: 'debug' });
    await c.locations.get(mock.fixtures.partners[0]!.locations.payments);
    const call = exporter.getFinishedSpans().find((s) => s.name.startsWith('GET /pos'))!;
    const fields = { trace_id: call.spanContext().traceId, span_id: call.spanContext().spanId };
    const ofCall = lines.filter((l) => String(l[0]).includes('/pos/v1/locations/'));
    expect(ofCall.length).toBeGreaterThanOrEqual(2); // the attempt and its answer
    for (const line of ofCall) expect(line[1]).toEqual(fields);

    // A pino-shaped logger (child, bindings, levels.values) gets the fields first.
    const pinoLines: unknown[][] = [];
    const pino = {
      ...logger,
      debug(this: unknown, ...args: unknown[]) {
        expect(this).toBe(pino); // called as a method
        pinoLines.push(args);
      },
      child: () => pino,
      bindings: () => ({}),
      levels: { values: { debug: 20 } },
    };
    const p = client({ tracer: tracerProvider.getTracer('sdk'), logger: pino, logLevel: 'debug' });
    await p.locations.get(mock.fixtures.partners[0]!.locations.payments);
    const pinoCall = pinoLines.filter((l) => String(l[1]).includes('/pos/v1/locations/'));
    expect(pinoCall.length).toBeGreaterThanOrEqual(2);
    for (const line of pinoCall)
      expect(line[0]).toEqual({ trace_id: expect.any(String), span_id: expect.any(String) });

    // No tracer: the lines are as before, a message alone.
    lines.length = 0;
    await client({ logger, logLevel: 'debug' }).locations.get(mock.fixtures.partners[0]!.locations.payments);
    expect(lines.every((l) => l.length === 1)).toBe(true);
  });
});

interface Point {
  attributes: Record<string, unknown>;
  value: number | Histogram;
}

async function collect(reader: TestReader): Promise<Map<string, { unit: string; points: Point[] }>> {
  const { resourceMetrics } = await reader.collect();
  const out = new Map<string, { unit: string; points: Point[] }>();
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics)
      out.set(metric.descriptor.name, {
        unit: metric.descriptor.unit,
        points: (metric.dataPoints as DataPoint<number | Histogram>[]).map((p) => ({
          attributes: p.attributes,
          value: p.value,
        })),
      });
  return out;
}

const count = (p: Point) => (typeof p.value === 'number' ? p.value : p.value.count);

describe('metrics (client option meter)', () => {
  it('a scripted run: success, 404, a retried 503, a 429 wait, an unknown outcome, a token mint', async () => {
    const reader = new TestReader({
      aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
    });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const c = client({ meter: meterProvider.getMeter('sdk'), reconcile: 'off' });
    const location = mock.fixtures.partners[0]!.locations.payments;
    const order = await c.orders.create({ location_id: location, total_cents: 5_000 }); // mint + 201
    await c.orders.get(order.order_id); // 200
    await c.orders.get('00000000-0000-4000-8000-000000000000').catch(() => {}); // 404
    mock.failNext({ method: 'GET', path: `/pos/v1/orders/${order.order_id}`, status: 503, retryAfter: 0 });
    await c.orders.get(order.order_id); // 503, then 200
    mock.failNext({ method: 'GET', path: `/pos/v1/orders/${order.order_id}`, status: 429, retryAfter: 0 });
    await c.orders.get(order.order_id); // 429 (waits Retry-After 0 s), then 200
    mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', status: 500 });
    const unknown = await c.payments
      .create(order.order_id, { method: 'card', amount_cents: 1_000 })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ outcomeUnknown: true });

    const m = await collect(reader);
    const url = new URL(loop.url);
    const server_ = { 'server.address': url.hostname, 'server.port': Number(url.port) };
    const orderRoute = '/pos/v1/orders/{order_id}';
    const paymentsRoute = '/pos/v1/orders/{order_id}/payments';

    const attempts = m.get('http.client.request.duration')!;
    expect(attempts.unit).toBe('s');
    const attempt = (status: number, route: string, errorType?: string) =>
      attempts.points.find(
        (p) =>
          p.attributes['http.response.status_code'] === status &&
          p.attributes['url.template'] === route &&
          p.attributes['error.type'] === errorType,
      );
    expect(attempt(200, orderRoute)?.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': orderRoute,
      ...server_,
      'http.response.status_code': 200,
    });
    expect(count(attempt(200, orderRoute)!)).toBe(3);
    expect(count(attempt(404, orderRoute, '404')!)).toBe(1);
    expect(count(attempt(503, orderRoute, '503')!)).toBe(1);
    expect(count(attempt(429, orderRoute, '429')!)).toBe(1);
    expect(count(attempt(500, paymentsRoute, '500')!)).toBe(1);
    expect(count(attempt(201, '/pos/v1/orders')!)).toBe(1);
    const boundaries = (attempt(200, orderRoute)!.value as Histogram).buckets.boundaries;
    expect(boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    // The token exchange is not an API call: no attempt of /oauth2/token.
    expect(attempts.points.some((p) => String(p.attributes['url.template']).includes('oauth'))).toBe(false);

    const calls = m.get('partner_payments.call.duration')!;
    expect(calls.unit).toBe('s');
    const callPoint = (route: string, outcome: string, errorType?: string) =>
      calls.points.find(
        (p) =>
          p.attributes['url.template'] === route &&
          p.attributes['partner_payments.outcome'] === outcome &&
          p.attributes['error.type'] === errorType,
      );
    expect(callPoint(orderRoute, 'ok')?.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': orderRoute,
      'partner_payments.outcome': 'ok',
    });
    expect(count(callPoint(orderRoute, 'ok')!)).toBe(3);
    expect(count(callPoint(orderRoute, 'error', '404')!)).toBe(1);
    expect(count(callPoint(paymentsRoute, 'outcome_unknown', '500')!)).toBe(1);
    expect(calls.points.reduce((n, p) => n + count(p), 0)).toBe(6);

    const retries = m.get('partner_payments.retries')!;
    expect(retries.points.map((p) => [p.attributes['http.response.status_code'], p.value]).sort()).toEqual([
      [429, 1],
      [503, 1],
    ]);
    expect(m.get('partner_payments.token.mints')!.points.map((p) => p.value)).toEqual([1]);
    const waits = m.get('partner_payments.rate_limit.wait')!;
    expect(waits.unit).toBe('s');
    expect(waits.points).toHaveLength(1);
    expect(waits.points[0]!.attributes).toMatchObject({
      'partner_payments.rate_limit.source': 'retry_after',
    });
    expect(count(waits.points[0]!)).toBe(1);
  });

  it('reconciliations are counted by outcome', async () => {
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const c = client({ meter: meterProvider.getMeter('sdk'), settleMs: 50 });
    const order = await c.orders.create({
      location_id: mock.fixtures.partners[0]!.locations.payments,
      total_cents: 5_000,
    });
    mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', status: 500 });
    await c.payments.create(order.order_id, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'k' });
    const points = (await collect(reader)).get('partner_payments.reconciliations')!.points;
    expect(points.map((p) => [p.attributes['partner_payments.outcome'], p.value])).toEqual([['landed', 1]]);
  });

  it("a derived client's calls are recorded once, on its own meter", async () => {
    const readerA = new TestReader();
    const readerB = new TestReader();
    const a = client({ meter: new MeterProvider({ readers: [readerA] }).getMeter('a') });
    const b = a.withOptions({ meter: new MeterProvider({ readers: [readerB] }).getMeter('b') });
    const same = a.withOptions({ maxRetries: 1 });
    const location = mock.fixtures.partners[0]!.locations.payments;
    await b.locations.get(location);
    await same.locations.get(location);
    const callsOf = async (r: TestReader) =>
      ((await collect(r)).get('partner_payments.call.duration')?.points ?? []).reduce(
        (n, p) => n + count(p),
        0,
      );
    expect(await callsOf(readerA)).toBe(1);
    expect(await callsOf(readerB)).toBe(1);
    expect(() => a.withOptions({ meter: {} as never })).toThrow(/meter/);
  });

  it('metric attributes hold no secret, token or id (control: a planted id-bearing path is caught)', async () => {
    const reader = new TestReader();
    const c = client({ meter: new MeterProvider({ readers: [reader] }).getMeter('sdk') });
    const order = await c.orders.create({
      location_id: mock.fixtures.partners[0]!.locations.payments,
      total_cents: 5_000,
    });
    await c.orders.get(order.order_id);
    const values = [...(await collect(reader)).values()].flatMap((m) =>
      m.points.flatMap((p) => Object.values(p.attributes).map(String)),
    );
    // Every value is a method, a route template, the server, a status, an outcome or an error kind:
    // short, and with no id, token or secret in it.
    const bad = (vs: string[]) =>
      vs.filter(
        (v) =>
          v.length > 64 ||
          /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(v) ||
          v.includes(mock.credentials.clientSecret) ||
          /bearer|eyJ/i.test(v),
      );
    expect(values.length).toBeGreaterThan(10);
    expect(bad(values)).toEqual([]);
    expect(bad([...values, `/pos/v1/orders/${order.order_id}`])).toEqual([
      `/pos/v1/orders/${order.order_id}`,
    ]);
  });
});

// `trace` is the API the partner's own code uses; keep the import honest.
void trace;
