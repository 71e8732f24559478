// api.md 19: one key for the whole charge. A partner reruns its whole unit of work (create the order,
// then pay it); the same key must give one order and one payment, whatever failed in between, and a
// call's deadline covers its reconciliation. Through the public client, against the mock on loopback.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  IdempotencyConflictError,
  MemoryIntentStore,
  ORDER_KEY_NAMESPACE,
  PaymentsClient,
  SCOPES,
} from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { referenceUuidV5 } from '../helpers/uuid-v5.js';

/** What reached the mock: method, path and the Idempotency-Key sent. */
interface Seen {
  method: string;
  path: string;
  key: string | null;
}
const seen: Seen[] = [];
const loop = loopbackMock({
  front: (request, mock) => {
    const url = new URL(request.url);
    seen.push({ method: request.method, path: url.pathname, key: request.headers.get('idempotency-key') });
    return mock.fetch(request);
  },
});
const { mock } = loop;
beforeEach(() => {
  seen.length = 0;
});

const posts = (suffix: string) => seen.filter((s) => s.method === 'POST' && s.path.endsWith(suffix));
const ordersOf = (reference: string) => mock.snapshot().orders.filter((o) => o.description === reference);
const paymentsOf = (orderId: string) => mock.snapshot().payments.filter((p) => p.order_id === orderId);

function client(intentStore = new MemoryIntentStore(), extra: Record<string, unknown> = {}) {
  return new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    maxRetries: 1,
    intentStore,
    ...extra,
  });
}
const location = () => mock.fixtures.partners[0]!.locations.payments;
const cart = (reference: string, total_cents = 2_500) => ({
  location_id: location(),
  total_cents,
  description: reference,
});

describe('orders.create with a key of any string', () => {
  it('sends a non-UUID key as its UUID v5 in ORDER_KEY_NAMESPACE: twice, one order and the same UUID', async () => {
    const c = client();
    const a = await c.orders.create(cart('cart-1'), { idempotencyKey: 'checkout-cart-1' });
    const b = await c.orders.create(cart('cart-1'), { idempotencyKey: 'checkout-cart-1' });
    expect(b.order_id).toBe(a.order_id);
    expect(ordersOf('cart-1')).toHaveLength(1);
    const keys = posts('/pos/v1/orders').map((s) => s.key);
    expect(keys).toEqual([
      referenceUuidV5('checkout-cart-1', ORDER_KEY_NAMESPACE),
      referenceUuidV5('checkout-cart-1', ORDER_KEY_NAMESPACE),
    ]);
  });

  it('sends a UUID key unchanged (any case), and refuses an empty or over-long key before sending', async () => {
    const c = client();
    const uuid = 'A5E0D7C2-1F3B-4E8A-9C6D-2B4F6A8C0E1D';
    await c.orders.create(cart('cart-2'), { idempotencyKey: uuid });
    expect(posts('/pos/v1/orders').map((s) => s.key)).toEqual([uuid]);
    for (const bad of ['', 'k'.repeat(256)]) {
      const error = await caught(c.orders.create(cart('cart-3'), { idempotencyKey: bad }));
      expect(error).toMatchObject({ name: 'RequestValidationError' });
    }
    expect(posts('/pos/v1/orders')).toHaveLength(1);
  });
});

describe('client.charge', () => {
  it('twice with one key: one order, one payment, and no second POST of either', async () => {
    const c = client();
    const first = await c.charge({ idempotencyKey: 'checkout-7', order: cart('cart-7') });
    const again = await c.charge({ idempotencyKey: 'checkout-7', order: cart('cart-7') });
    expect(again.payment.payment_id).toBe(first.payment.payment_id);
    expect(again.order.order_id).toBe(first.order.order_id);
    expect(first.payment).toMatchObject({ amount_cents: 2_500, status: 'pending' });
    expect(ordersOf('cart-7')).toHaveLength(1);
    expect(paymentsOf(first.order.order_id)).toHaveLength(1);
    expect(posts('/pos/v1/orders')).toHaveLength(1);
    expect(posts('/payments')).toHaveLength(1);
  });

  it('from another client sharing the intent store: the same order and payment, nothing created', async () => {
    const store = new MemoryIntentStore();
    const first = await client(store).charge({ idempotencyKey: 'checkout-8', order: cart('cart-8') });
    const other = await client(store).charge({ idempotencyKey: 'checkout-8', order: cart('cart-8') });
    expect(other.payment.payment_id).toBe(first.payment.payment_id);
    expect(posts('/pos/v1/orders')).toHaveLength(1);
    expect(posts('/payments')).toHaveLength(1);
  });

  it('a rerun with a fresh intent store (another process, no shared store) still makes one order', async () => {
    await client()
      .charge({ idempotencyKey: 'checkout-9', order: cart('cart-9') })
      .catch(() => undefined);
    // A process that died between the order and the payment: the order key alone brings it back.
    const c = client();
    const order = await c.orders.create(cart('cart-10'), { idempotencyKey: 'checkout-10' });
    const { order: again, payment } = await c.charge({
      idempotencyKey: 'checkout-10',
      order: cart('cart-10'),
    });
    expect(again.order_id).toBe(order.order_id);
    expect(ordersOf('cart-10')).toHaveLength(1);
    expect(paymentsOf(order.order_id).map((p) => p.payment_id)).toEqual([payment.payment_id]);
  });

  it('a lost order answer, then a lost payment answer: one order and one payment', async () => {
    const c = client(new MemoryIntentStore(), { settleMs: 50 });
    mock.failNext({ method: 'POST', path: '/pos/v1/orders', phase: 'after', network: true });
    mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    const { order, payment } = await c.charge({ idempotencyKey: 'checkout-11', order: cart('cart-11') });
    expect(ordersOf('cart-11')).toHaveLength(1);
    expect(paymentsOf(order.order_id).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    expect(posts('/pos/v1/orders')).toHaveLength(2); // the order's retry, under the same key
    expect(posts('/payments')).toHaveLength(1); // the payment's lost answer was reconciled, not resent
  });

  it('a rerun whose order read fails ends before any payment step, saying so; the next rerun returns the one payment', async () => {
    const c = client();
    const first = await c.charge({ idempotencyKey: 'checkout-16', order: cart('cart-16') });
    mock.failNext({ method: 'GET', path: /\/pos\/v1\/orders\/[^/]+$/, status: 503, times: 2 });
    const before = seen.length;
    const error = await caught(c.charge({ idempotencyKey: 'checkout-16', order: cart('cart-16') }));
    expect(String((error as Error).message)).toMatch(
      /sent no payment.*rerun with \{ idempotencyKey: 'checkout-16' \}/,
    );
    expect(seen.slice(before).filter((s) => s.method === 'POST')).toEqual([]);
    const again = await c.charge({ idempotencyKey: 'checkout-16', order: cart('cart-16') });
    expect(again.payment.payment_id).toBe(first.payment.payment_id);
    expect(paymentsOf(first.order.order_id)).toHaveLength(1);
  });

  it('the same key with other params: IdempotencyConflictError before the payment is sent', async () => {
    const c = client();
    await c.charge({ idempotencyKey: 'checkout-12', order: cart('cart-12') });
    const before = seen.length;
    // Another order (the same amount): the store knows the key, so no order request is made either.
    const otherOrder = await caught(
      c.charge({
        idempotencyKey: 'checkout-12',
        order: { ...cart('cart-12'), external_reference: 'another' },
      }),
    );
    expect(otherOrder).toBeInstanceOf(IdempotencyConflictError);
    const otherAmount = await caught(
      c.charge({ idempotencyKey: 'checkout-12', order: cart('cart-12'), payment: { amount_cents: 100 } }),
    );
    expect(otherAmount).toBeInstanceOf(IdempotencyConflictError);
    expect(seen.slice(before).filter((s) => s.method === 'POST')).toEqual([]);
    // Positive control: the same count does see a charge under a new key.
    await c.charge({ idempotencyKey: 'checkout-13', order: cart('cart-13') });
    expect(seen.slice(before).filter((s) => s.method === 'POST')).toHaveLength(2);
  });

  it("the service's order conflict (a store that does not know the key) is an IdempotencyConflictError, nothing paid", async () => {
    await client().orders.create(cart('cart-14'), { idempotencyKey: 'checkout-14' });
    const error = await caught(
      client().charge({ idempotencyKey: 'checkout-14', order: cart('cart-14', 9_999) }),
    );
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(posts('/payments')).toHaveLength(0);
  });

  it('waits for the result with awaitResult, and refuses bad params before sending anything', async () => {
    const c = client();
    const bad = await caught(c.charge({ idempotencyKey: '', order: cart('cart-15') }));
    expect(bad).toMatchObject({ name: 'RequestValidationError' });
    const badOrder = await caught(c.charge({ idempotencyKey: 'k', order: { total_cents: -1 } as never }));
    expect(badOrder).toMatchObject({ name: 'RequestValidationError' });
    expect(seen.filter((s) => s.method === 'POST' && s.path !== '/oauth/token')).toEqual([]);
  });
});
