// A payment lands, its answer is lost, and then reconciliation cannot read the order (the read and
// its retries all meet a 503): the call must return the payment (reading again later) or end with
// outcomeUnknown and its key, never with the read's error, which says nothing was charged; and the
// key must not stay held, or the partner's rerun with it cannot learn what happened.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { PaymentsClient, SCOPES } from '../../src/index.js';
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
  server = await serveFetch((request) => mock.fetch(request).catch(() => Response.error()));
});
afterAll(() => server.close());
beforeEach(() => mock.reset());

async function landedThenUnreadable() {
  const c = new PaymentsClient({
    ...mock.credentials,
    baseUrl: server.url,
    authUrl: server.url,
    scopes: [...SCOPES],
    settleMs: 50,
  });
  const location = mock.fixtures.partners[0]?.locations.payments ?? '';
  const { order_id: orderId } = await c.orders.create({ location_id: location, total_cents: 5_000 });
  mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
  // The read and its two retries (maxRetries 2) all fail.
  mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, status: 503, times: 3 });
  const params = { method: 'card', amount_cents: 1_000 } as const;
  const result = await c.payments.create(orderId, params, { idempotencyKey: 'read-fails' }).then(
    (payment) => ({ payment, error: undefined }),
    (error: unknown) => ({ payment: undefined, error }),
  );
  const landed = mock.snapshot().payments.filter((p) => p.order_id === orderId);
  expect(landed).toHaveLength(1);
  return { c, orderId, params, result, error: result.error, paymentId: landed[0]?.payment_id };
}

it('the payment landed: the call returns it or ends outcomeUnknown with its key, not with the read’s 503', async () => {
  const { result, error, paymentId } = await landedThenUnreadable();
  // Today: InternalServerError 503 (the GET's), outcomeUnknown false, idempotencyKey undefined.
  if (error === undefined) expect(result.payment?.payment_id).toBe(paymentId);
  else expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'read-fails' });
});

it('a rerun with the key, the order readable again, returns that payment (the key is not left held)', async () => {
  const { c, orderId, params, paymentId } = await landedThenUnreadable();
  // Today: "Another call holds idempotency key 'read-fails'" (the lease stays for 60 s).
  const again = await c.payments.create(orderId, params, { idempotencyKey: 'read-fails', deadlineMs: 3_000 });
  expect(again.payment_id).toBe(paymentId);
  expect(mock.snapshot().payments.filter((p) => p.order_id === orderId)).toHaveLength(1);
});
