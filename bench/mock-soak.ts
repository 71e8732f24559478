/**
 * The mock's memory under a long load: 1,000,000 requests against the built mock as the bin runs it
 * (real-time clock, demo mode on, rate limits off, the default `maxOrders` of 100,000), in a child
 * process, from an undici load at concurrency 32 in this one. Each step creates an order (with an
 * Idempotency-Key), pays it, reads it back and reads a location, so orders, payments, events and
 * keys pile up until `maxOrders` forgets the oldest. The child's heap is sampled after a full GC
 * every 100,000 requests; the run fails if it ends at 300 MB or more. Not a unit test: about 10
 * minutes on a quiet 2-core machine.
 *
 *   npm run soak:mock                       1,000,000 requests (builds first)
 *   node --import tsx bench/mock-soak.ts 200000
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { Pool } from 'undici';

const LIMIT_MB = 300;
const SAMPLE_EVERY = 100_000;
/** The loop stops at its count, or at this much wall time, whichever comes first. */
const MAX_MINUTES = 45;

async function serve(): Promise<void> {
  // The built package, as partners install it (typed from the sources: dist/ may not exist at typecheck).
  const built = new URL('../dist/testing.js', import.meta.url).href;
  const { createMockService } = (await import(built)) as typeof import('../src/testing/index.js');
  const mock = createMockService({ clock: { realTime: true }, autoProcess: true, rateLimits: false });
  const server = await mock.listen({ port: 0 });
  process.on('message', (message) => {
    if (message !== 'sample') return;
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
  });
  process.send?.({
    url: server.url,
    ...mock.credentials,
    location: mock.fixtures.partners[0]!.locations.payments,
  });
}

interface Sample {
  requests: number;
  heapMb: number;
  /** Orders the mock keeps at that point. */
  orders: number;
}

async function soak(total: number): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const ready = await next<{ url: string; clientId: string; clientSecret: string; location: string }>();
  const pool = new Pool(ready.url, { connections: 32 });
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: ready.clientId,
    client_secret: ready.clientSecret,
  });
  const { access_token: token } = (await (
    await fetch(`${ready.url}/oauth2/token`, { method: 'POST', body: form })
  ).json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const answer = await pool.request({
      method,
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.body.text();
    if (answer.statusCode >= 300)
      throw new Error(`${method} ${path}: ${answer.statusCode} ${text.slice(0, 200)}`);
    return text;
  };
  const sample = async (requests: number): Promise<Sample> => {
    child.send('sample');
    const { heapMb } = await next<{ heapMb: number }>();
    // Each step creates one order; the mock keeps the latest 100,000.
    const orders = Math.min(requests / 4, 100_000);
    console.error(
      `[soak] ${requests.toLocaleString('en-US')} requests: heap ${heapMb.toFixed(1)} MB, ${orders.toLocaleString('en-US')} orders kept`,
    );
    return { requests, heapMb, orders };
  };
  const samples: Sample[] = [await sample(0)];
  const deadline = Date.now() + MAX_MINUTES * 60_000;
  let done = 0;
  // The load runs in batches of SAMPLE_EVERY requests and pauses while the heap is sampled: a full
  // GC of a few hundred MB blocks the mock, and requests queued meanwhile would race its keep-alive
  // timer.
  let batchEnd = 0;
  const worker = async () => {
    while (done < batchEnd && Date.now() < deadline) {
      done += 4;
      const order = JSON.parse(
        await call(
          'POST',
          '/pos/v1/orders',
          { ...json, 'idempotency-key': randomUUID() },
          {
            location_id: ready.location,
            total_cents: 2_500,
            external_reference: `SOAK-${done}`,
          },
        ),
      ) as { order_id: string };
      await call('POST', `/pos/v1/orders/${order.order_id}/payments`, json, {
        method: 'card',
        amount_cents: 2_500,
      });
      await call('GET', `/pos/v1/orders/${order.order_id}`, auth);
      await call('GET', `/pos/v1/locations/${ready.location}`, auth);
    }
  };
  let seconds = 0;
  while (done < total && Date.now() < deadline) {
    batchEnd = Math.min(total, done + SAMPLE_EVERY);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 32 }, worker));
    seconds += (performance.now() - t0) / 1000;
    samples.push(await sample(done));
  }
  const last = samples.at(-1)!;
  await pool.close();
  child.kill('SIGTERM');
  const peak = Math.max(...samples.map((s) => s.heapMb), last.heapMb);
  console.log(
    [
      `Mock soak: ${done.toLocaleString('en-US')} requests in ${seconds.toFixed(0)} s (${Math.round(done / seconds).toLocaleString('en-US')}/s), load average at the end ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}.`,
      `Heap after a full GC (MB), every ${SAMPLE_EVERY.toLocaleString('en-US')} requests: ${samples.map((s) => s.heapMb.toFixed(1)).join(', ')}; at the end ${last.heapMb.toFixed(1)} (${last.orders.toLocaleString('en-US')} orders kept).`,
      `Peak ${peak.toFixed(1)} MB; limit ${LIMIT_MB} MB: ${last.heapMb < LIMIT_MB && peak < LIMIT_MB ? 'met' : 'NOT MET'}.`,
    ].join('\n'),
  );
  if (done < total)
    throw new Error(`the soak stopped at its ${MAX_MINUTES}-minute bound after ${done} requests`);
  if (peak >= LIMIT_MB) process.exitCode = 1;
}

if (process.argv.includes('--serve')) await serve();
else await soak(Number(process.argv[2] ?? 1_000_000));
