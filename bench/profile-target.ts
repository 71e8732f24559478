/**
 * One workload alone, profiled after a warm-up with the inspector's CPU profiler (run by
 * bench/profile.ts): the profile then shows the steady state of the SDK's own hot functions, not
 * start-up or the baselines. `get-raw` profiles raw undici on the same server, for comparison.
 */

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, request } from 'undici';
import { HEADERS, level3Order } from './http.js';
import { paymentsOver } from './key-floor.js';
import { sdk, webhooks } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { throughput } from './stats.js';
import { delivery } from './webhooks.js';

const [figure, out] = process.argv.slice(2);

class Reader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}
const PAYMENT = { method: 'card', amount_cents: 12_500 } as const;
if (!figure || !out)
  throw new Error(
    'usage: profile-target.ts get|get-traced|get-raw|create|pay|pay-plain|webhook-1k|webhook-16k <out.cpuprofile>',
  );

async function workload(): Promise<{ run(n: number): Promise<unknown>; stop(): void }> {
  if (figure!.startsWith('webhook')) {
    const { body, header } = delivery(figure === 'webhook-1k' ? 1024 : 16 * 1024);
    return {
      run: async (n) => {
        for (let i = 0; i < n * 10; i++) webhooks.verifyWebhook(body, header, 'whsec_bench_0123456789abcdef');
      },
      stop: () => {},
    };
  }
  const server = await startBenchServer();
  const client = new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: server.url });
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const url = `${server.url}/pos/v1/orders/${ORDER_ID}`;
  const headers = HEADERS;
  const payload = level3Order();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const traced = client.withOptions({ tracer: provider.getTracer('profile') });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const batched = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new InMemorySpanExporter(), { maxQueueSize: 1_000_000 })],
  });
  const observed = client.withOptions({
    tracer: batched.getTracer('profile'),
    meter: new MeterProvider({ readers: [new Reader()] }).getMeter('profile'),
  });
  // The payments resource with no intent layer (0.2.0's path), for `pay-plain`.
  const plainPayments = paymentsOver(client);
  const calls: Record<string, () => Promise<unknown>> = {
    get: () => client.orders.get(ORDER_ID),
    'get-traced': () => {
      if (exporter.getFinishedSpans().length > 10_000) exporter.reset();
      return traced.orders.get(ORDER_ID);
    },
    'get-observed': () => observed.orders.get(ORDER_ID),
    'get-raw': async () => (await request(url, { dispatcher: agent, headers })).body.json(),
    create: () => client.orders.create(payload),
    'pay-plain': () => plainPayments.create(ORDER_ID, PAYMENT),
    pay: () => client.payments.create(ORDER_ID, PAYMENT, { idempotencyKey: randomUUID() }),
  };
  const call = calls[figure!];
  if (!call) throw new Error(`unknown figure ${figure}`);
  return {
    run: (n) => throughput(call, n, figure === 'create' || figure?.startsWith('pay') ? 1 : 64),
    stop: () => server.stop(),
  };
}

const { run, stop } = await workload();
await run(10_000);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
await run(20_000);
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
session.disconnect();
stop();
