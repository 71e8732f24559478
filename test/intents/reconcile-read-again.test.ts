// A payment lands and its answer is lost; the first order read of its reconciliation fails on every
// attempt (the read and its maxRetries), and the service answers again at once. The order can be read
// well within the call's deadline, so the call must read it again and return the payment: a read is
// safe to repeat (docs/idempotency.md: "a read that retries freely"), and giving up at the first read
// that ran out of retries is what leaves the chaos soak's last payment calls in outcomeUnknown
// (docs/reliability.md: every one of them "the service's records could not be read").
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { MemoryIntentStore, PaymentsClient, type ReconcileEvent, SCOPES } from '../../src/index.js';
import {
  createMockService,
  type LoopbackServer,
  type MockService,
  serveFetch,
} from '../../src/testing/index.js';

let mock: MockService;
let server: LoopbackServer;

beforeAll(async () => {
  mock = createMockService();
  server = await serveFetch(mock.fetch);
});
afterAll(() => server.close());
beforeEach(() => mock.reset());

it('a reconciliation read that ran out of its retries is read again within the deadline, and the payment is returned', async () => {
  const client = new PaymentsClient({
    ...mock.credentials,
    baseUrl: server.url,
    authUrl: server.url,
    scopes: [...SCOPES],
    settleMs: 50,
    maxRetries: 2,
    intentStore: new MemoryIntentStore(),
  });
  const events: ReconcileEvent[] = [];
  client.on('reconcile', (e) => events.push(e));
  const { order_id: orderId } = await client.orders.create({
    location_id: mock.fixtures.partners[0]!.locations.payments,
    total_cents: 5_000,
  });
  // The payment is committed, its answer lost (a 500 after the commit).
  mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', status: 500 });
  // The first read and its two retries meet a 503; the next read is answered.
  mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, status: 503, times: 3 });
  const result = await client.payments
    .create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'read-again', deadlineMs: 10_000 },
    )
    .then(
      (payment) => ({ payment, error: undefined }),
      (error: unknown) => ({ payment: undefined, error }),
    );
  const landed = mock
    .snapshot()
    .payments.filter((p) => p.order_id === orderId)
    .map((p) => p.payment_id);
  expect(landed).toHaveLength(1);
  // Today: outcomeUnknown, "the service's records could not be read (... 503 ...)", 9.9 s of the
  // deadline unused.
  expect(result.error).toBeUndefined();
  expect(result.payment?.payment_id).toBe(landed[0]);
  expect(events.at(-1)?.outcome).toBe('landed');
});
