/**
 * Request overhead: the SDK against raw undici `request()` (an Agent with the SDK's keep-alive
 * settings) and raw global `fetch()`, on the same loopback server, in alternating rounds. The raw
 * sides send the headers the SDK sends (authorization, accept, user-agent) and parse the JSON, so a
 * ratio measures only the SDK's own work.
 */
import { randomUUID } from 'node:crypto';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, type Dispatcher, request, util } from 'undici';
import { VERSION } from '../src/version.js';
import type { Comparison } from './report.js';
import { sdk } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { alternate, summarize, throughput } from './stats.js';

/** A reader that keeps the aggregated metrics in memory until collected (here: never). */
class InMemoryReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

export interface HttpBenchOptions {
  /** Requests per contender per round. */
  perRound: number;
  rounds: number;
}

const TOKEN = 'bench-token';
/** Exactly the headers the SDK sends on a GET (see `src/client.ts`). */
export const HEADERS = {
  accept: 'application/json',
  'user-agent': `partner-payments/${VERSION} node/${process.versions.node}`,
  authorization: `Bearer ${TOKEN}`,
};

/** A Level 3 order of 20 lines that passes every rule (line totals and tax reconcile). */
export function level3Order() {
  const lines = Array.from({ length: 20 }, (_, i) => ({
    description: `Brake pad set, axle ${i + 1}`,
    quantity: 2,
    unit_price_cents: 1_250,
    total_cents: 2_500,
    tax_amount_cents: 200,
    product_code: `BP-${1000 + i}`,
    unit_of_measure: 'EA',
  }));
  return {
    location_id: '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11',
    total_cents: 54_000,
    external_reference: 'PO-77812',
    level3: { tax_amount_cents: 4_000, line_items: lines, customer_reference: 'PO-77812' },
  };
}

/**
 * The transport's limit: a GET through undici's dispatcher API with the least handler that keeps
 * the body (what the SDK's transport does, without the SDK). Shown for context, with no goal.
 */
function dispatchGet(dispatcher: Agent, url: string): Promise<string> {
  const { origin, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    dispatcher.dispatch({ origin, path: pathname, method: 'GET', headers: HEADERS }, {
      onConnect() {},
      onHeaders(_status: number, raw: Buffer[]) {
        util.parseHeaders(raw);
        return true;
      },
      onData(chunk: Buffer) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        resolve(Buffer.concat(chunks).toString('utf8'));
      },
      onError: reject,
    } as unknown as Dispatcher.DispatchHandler);
  });
}

export async function benchHttp(options: HttpBenchOptions): Promise<Comparison[]> {
  const server = await startBenchServer();
  // The SDK's own default transport (its shared keep-alive Agent) is what partners get.
  const client = new sdk.PaymentsClient({ accessToken: TOKEN, baseUrl: server.url });
  // The same client traced: a span per call, kept by an in-memory exporter (emptied every round).
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const traced = client.withOptions({ tracer: provider.getTracer('bench') });
  // The same client with a tracer and a meter (metrics aggregated in memory, collected by no one),
  // under the AsyncLocalStorage context manager a Node SDK set-up registers.
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const meterProvider = new MeterProvider({ readers: [new InMemoryReader()] });
  // Spans in batches, as a production set-up exports them (SimpleSpanProcessor is for tests).
  const batchExporter = new InMemorySpanExporter();
  const batched = new BasicTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(batchExporter, { maxQueueSize: 1_000_000, maxExportBatchSize: 512 }),
    ],
  });
  const observed = client.withOptions({
    tracer: batched.getTracer('bench'),
    meter: meterProvider.getMeter('bench'),
  });
  // The floor of that figure: raw undici with the same OpenTelemetry work (a CLIENT span with the
  // SDK's attributes, made active, and the two duration histograms), on the same providers.
  const floorTracer = batched.getTracer('bench-floor');
  const floorMeter = meterProvider.getMeter('bench-floor');
  const floorAttempt = floorMeter.createHistogram('http.client.request.duration', { unit: 's' });
  const floorCall = floorMeter.createHistogram('partner_payments.call.duration', { unit: 's' });
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const agent2 = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const agent3 = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const orderUrl = `${server.url}/pos/v1/orders/${ORDER_ID}`;
  const createUrl = `${server.url}/pos/v1/orders`;
  const payload = level3Order();
  const { port } = new URL(server.url);
  const route = '/pos/v1/orders/{order_id}';
  const floorGet = () =>
    floorTracer.startActiveSpan(
      `GET ${route}`,
      {
        kind: 2,
        attributes: {
          'http.request.method': 'GET',
          'url.template': route,
          'server.address': '127.0.0.1',
          'server.port': Number(port),
        },
      },
      async (span) => {
        const started = performance.now();
        const res = await request(orderUrl, { dispatcher: agent3, headers: HEADERS });
        const data = await res.body.json();
        const seconds = (performance.now() - started) / 1000;
        span.setAttribute('http.response.status_code', res.statusCode);
        span.setAttribute('partner_payments.outcome_unknown', false);
        span.setAttribute('partner_payments.attempts', 1);
        span.end();
        const call = { 'http.request.method': 'GET', 'url.template': route };
        floorAttempt.record(seconds, {
          ...call,
          'server.address': '127.0.0.1',
          'server.port': Number(port),
          'http.response.status_code': res.statusCode,
        });
        floorCall.record(seconds, { ...call, 'partner_payments.outcome': 'ok' });
        return data;
      },
    );
  const { perRound, rounds } = options;
  const results: Comparison[] = [];
  try {
    for (const concurrency of [1, 32, 64]) {
      const rates = await alternate(
        {
          sdk: () => throughput(() => client.orders.get(ORDER_ID), perRound, concurrency),
          traced: () => {
            exporter.reset();
            return throughput(() => traced.orders.get(ORDER_ID), perRound, concurrency);
          },
          observed: () => {
            batchExporter.reset();
            return throughput(() => observed.orders.get(ORDER_ID), perRound, concurrency);
          },
          undici: () =>
            throughput(
              async () => (await request(orderUrl, { dispatcher: agent, headers: HEADERS })).body.json(),
              perRound,
              concurrency,
            ),
          fetch: () =>
            throughput(
              async () => (await fetch(orderUrl, { headers: HEADERS })).json(),
              perRound,
              concurrency,
            ),
          floor: () => {
            batchExporter.reset();
            return throughput(floorGet, perRound, concurrency);
          },
          dispatch: () =>
            throughput(async () => JSON.parse(await dispatchGet(agent2, orderUrl)), perRound, concurrency),
        },
        rounds,
      );
      const figure = `\`orders.get\`, concurrency ${concurrency}`;
      const sdkRate = summarize(rates.sdk);
      const requests = perRound * rounds;
      results.push(
        {
          figure,
          unit: 'req/s',
          sdk: sdkRate,
          baselineName: 'raw undici',
          baseline: summarize(rates.undici),
          goal: 0.9,
          requests,
        },
        {
          figure,
          unit: 'req/s',
          sdk: sdkRate,
          baselineName: 'raw fetch',
          baseline: summarize(rates.fetch),
          goal: 1,
          requests,
        },
        {
          figure,
          unit: 'req/s',
          sdk: sdkRate,
          baselineName: 'raw undici dispatch, minimal handler',
          baseline: summarize(rates.dispatch),
          goal: 0,
          requests,
        },
        {
          figure: `${figure}, with a tracer (in-memory exporter)`,
          unit: 'req/s',
          sdk: summarize(rates.traced),
          baselineName: 'raw undici',
          baseline: summarize(rates.undici),
          goal: 0.8,
          requests,
        },
        {
          figure: `${figure}, with a tracer (batched spans) and a meter, in memory`,
          unit: 'req/s',
          sdk: summarize(rates.observed),
          baselineName: 'the same client without them',
          baseline: sdkRate,
          goal: concurrency === 32 ? 0 : 0.85,
          requests,
        },
        {
          figure: `${figure}: raw undici with the same OpenTelemetry work (the floor of the figure above)`,
          unit: 'req/s',
          sdk: summarize(rates.floor),
          baselineName: 'raw undici',
          baseline: summarize(rates.undici),
          goal: 0,
          requests,
        },
      );
    }
    const createRates = await alternate(
      {
        sdk: () => throughput(() => client.orders.create(payload), perRound, 1),
        undici: () =>
          throughput(
            async () => {
              const res = await request(createUrl, {
                method: 'POST',
                dispatcher: agent,
                headers: { ...HEADERS, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                body: JSON.stringify(payload),
              });
              return res.body.json();
            },
            perRound,
            1,
          ),
      },
      rounds,
    );
    results.push({
      figure: '`orders.create`, Level 3 with 20 lines, concurrency 1',
      unit: 'req/s',
      sdk: summarize(createRates.sdk),
      baselineName: 'raw undici',
      baseline: summarize(createRates.undici),
      goal: 0.95,
      requests: perRound * rounds,
    });
  } finally {
    await agent.close();
    await agent2.close();
    await agent3.close();
    await provider.shutdown();
    await meterProvider.shutdown();
    await batched.shutdown();
    context.disable();
    server.stop();
  }
  return results;
}
