// `partner-payments mcp --intent-store URL` against a real Redis and a real Postgres: an agent's
// charge retried with its key through a second server process (the first one gone) finds the key in
// the shared store and makes no second order or payment. The control runs the same retry through a
// server with its own in-memory store, and the count catches the second payment it makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, connectStdio, type Recorded, serveRecording } from '../mcp/helpers.js';
import { type Engine, startPostgres, startRedis } from './engines.js';

let served: Recorded;
beforeAll(async () => {
  served = await serveRecording();
});
afterAll(async () => {
  await served?.close();
});

const location = () => served.mock.fixtures.partners[0]!.locations.payments;
const paymentsOf = (orderId: string) => served.mock.snapshot().payments.filter((p) => p.order_id === orderId);

/** One `charge` through a fresh `mcp` process with `flags`, which then exits. */
async function chargeThrough(flags: string[], args: Record<string, unknown>) {
  const server = await connectStdio(served, ['--allow-writes', ...flags]);
  try {
    const result = await server.call('charge', args);
    expect(result.isError, `${JSON.stringify(result)}\n${server.stderr()}`).toBeFalsy();
    return body(result).payment as { payment_id: string; order_id: string };
  } finally {
    await server.close();
  }
}

describe.each([
  ['Redis', startRedis],
  ['Postgres', startPostgres],
])('mcp --intent-store on %s', (name, start) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await start();
  }, 60_000);
  afterAll(async () => {
    await engine?.stop();
  });

  it('a charge retried through another server process makes no second order or payment', async () => {
    const key = `mcp-${name}-inv-1`;
    const args = {
      idempotency_key: key,
      order: { location_id: location(), total_cents: 5_000, external_reference: key },
      amount_cents: 1_500,
    };
    const store = ['--intent-store', engine.url];
    const first = await chargeThrough(store, args);
    const posts = { orders: served.posts('/orders'), payments: served.posts('/payments') };
    const again = await chargeThrough(store, args);
    expect(again).toEqual(first);
    expect(served.posts('/payments')).toBe(posts.payments);
    expect(served.posts('/orders')).toBe(posts.orders); // the store knew the key's order
    expect(paymentsOf(first.order_id)).toHaveLength(1);

    // Control: a server on a fresh folder of its own (a store that survives restarts, but has not
    // seen this key) trusts it, and pays again: the shared store is what keeps the key once.
    const alone = await chargeThrough([], args);
    expect(alone.order_id).toBe(first.order_id); // the order key is the same
    expect(alone.payment_id).not.toBe(first.payment_id);
    expect(served.posts('/payments')).toBe(posts.payments + 1);
    expect(paymentsOf(first.order_id)).toHaveLength(2);
  }, 60_000);
});
