// api.md 22: exactly once across restarts with a store that forgets. A new process has a new
// in-memory intent store, so each client below with its own MemoryIntentStore is a process started
// after the one before it died; the service's own records are the only memory they share. The
// README's quick start rerun, a partial payment, a declined first payment, and what each costs in
// requests, counted on what reached the mock. The cross-process runs from the packed tarball are in
// test/examples/restart.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { CallError, MemoryIntentStore, PaymentsClient, SCOPES } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { loopbackMock } from '../helpers/loopback-mock.js';

const seen: { method: string; path: string }[] = [];
const loop = loopbackMock({
  front: (request, mock) => {
    seen.push({ method: request.method, path: new URL(request.url).pathname });
    return mock.fetch(request);
  },
});
const { mock } = loop;
beforeEach(() => {
  seen.length = 0;
});

/** A client as a newly started process makes it: the default store, which forgets on exit. */
const process = () => new PaymentsClient({ ...loop.clientOptions(), scopes: [...SCOPES], maxRetries: 1 });
/** The requests to the API (the token's are not the charge's). */
const calls = () =>
  seen
    .filter((s) => s.path.startsWith('/pos/'))
    .map((s) => `${s.method} ${s.path.replace(/[0-9a-f-]{36}/g, ':id')}`);
const paymentsOf = (orderId: string) => mock.snapshot().payments.filter((p) => p.order_id === orderId);
const location = () => mock.fixtures.partners[0]!.locations.payments;
const order = (reference: string, total_cents = 10_000) => ({
  location_id: location(),
  total_cents,
  external_reference: reference,
});

describe('client.charge rerun after a restart, on the default store', () => {
  it('three processes, one key: the same order and payment each time, one payment made', async () => {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await process().charge({ idempotencyKey: 'checkout-INV-1001', order: order('INV-1001') }));
    }
    const [first] = runs;
    for (const run of runs) {
      expect(run.order.order_id).toBe(first?.order.order_id);
      expect(run.payment.payment_id).toBe(first?.payment.payment_id);
    }
    expect(paymentsOf(first!.order.order_id)).toHaveLength(1);
  });

  it('a partial payment (5,000 of 10,000) rerun twice from new processes: still one payment', async () => {
    const charge = () =>
      process().charge({
        idempotencyKey: 'checkout-INV-1002',
        order: order('INV-1002'),
        payment: { amount_cents: 5_000 },
      });
    const first = await charge();
    const second = await charge();
    const third = await charge();
    expect([second.payment.payment_id, third.payment.payment_id]).toEqual([
      first.payment.payment_id,
      first.payment.payment_id,
    ]);
    expect(paymentsOf(first.order.order_id).map((p) => p.amount_cents)).toEqual([5_000]);
  });

  it('a declined first payment is returned to the rerun, and no second one is sent', async () => {
    const first = await process().charge({ idempotencyKey: 'checkout-INV-1003', order: order('INV-1003') });
    mock.processor.decline(first.payment.payment_id);
    seen.length = 0;
    const rerun = await process().charge({ idempotencyKey: 'checkout-INV-1003', order: order('INV-1003') });
    expect(rerun.payment.payment_id).toBe(first.payment.payment_id);
    expect(rerun.payment.status).toBe('declined');
    expect(calls().filter((c) => c.startsWith('POST') && c.endsWith('/payments'))).toEqual([]);
    expect(paymentsOf(first.order.order_id)).toHaveLength(1);
  });

  it('costs at most one read more: the first run 3 requests, a rerun 2 and no payment POST', async () => {
    await process().charge({ idempotencyKey: 'checkout-INV-1004', order: order('INV-1004') });
    expect(calls()).toEqual([
      'POST /pos/v1/orders',
      'GET /pos/v1/orders/:id',
      'POST /pos/v1/orders/:id/payments',
    ]);
    seen.length = 0;
    await process().charge({ idempotencyKey: 'checkout-INV-1004', order: order('INV-1004') });
    expect(calls()).toEqual(['POST /pos/v1/orders', 'GET /pos/v1/orders/:id']);
  });

  it('with a store that survives a restart: 2 requests, the order and the payment', async () => {
    const store = new MemoryIntentStore();
    Object.defineProperty(store, 'durable', { value: true });
    const client = new PaymentsClient({ ...loop.clientOptions(), scopes: [...SCOPES], intentStore: store });
    await client.charge({ idempotencyKey: 'checkout-INV-1005', order: order('INV-1005') });
    expect(calls()).toEqual(['POST /pos/v1/orders', 'POST /pos/v1/orders/:id/payments']);
  });

  it('payments of another amount already on the order (the hosted page): nothing sent, the error lists them', async () => {
    const first = await process().charge({
      idempotencyKey: 'checkout-INV-1006',
      order: order('INV-1006'),
      payment: { amount_cents: 4_000 },
    });
    seen.length = 0;
    const error = await caught(
      process().charge({
        idempotencyKey: 'checkout-INV-1006',
        order: order('INV-1006'),
        payment: { amount_cents: 6_000 },
      }),
    );
    expect(error).toBeInstanceOf(CallError);
    expect((error as CallError).idempotencyKey).toBe('checkout-INV-1006');
    expect((error as Error).message).toContain(first.payment.payment_id);
    expect((error as Error).message).toContain('nothing was sent');
    expect(calls().filter((c) => c.startsWith('POST') && c.endsWith('/payments'))).toEqual([]);
  });

  it('control: without the service as memory (a store that claims to survive, but forgot), the rerun pays twice', async () => {
    // The check above can fail: a store that says it survives a restart is trusted, and one that
    // forgot anyway gets a second payment. This is why the default store reads the order.
    const forgetful = () => {
      const store = new MemoryIntentStore();
      Object.defineProperty(store, 'durable', { value: true });
      return new PaymentsClient({ ...loop.clientOptions(), scopes: [...SCOPES], intentStore: store });
    };
    const first = await forgetful().charge({
      idempotencyKey: 'checkout-INV-1007',
      order: order('INV-1007'),
      payment: { amount_cents: 5_000 },
    });
    await forgetful().charge({
      idempotencyKey: 'checkout-INV-1007',
      order: order('INV-1007'),
      payment: { amount_cents: 5_000 },
    });
    expect(paymentsOf(first.order.order_id)).toHaveLength(2);
  });
});

describe('payments.create and refunds.create with a key, refused after a restart on the default store', () => {
  it('a payment: the error shows the order’s payments and names the durable stores, never a smaller amount', async () => {
    const placed = await process().orders.create(order('INV-2001', 3_000));
    const paid = await process().payments.create(
      placed.order_id,
      { method: 'card', amount_cents: 3_000 },
      { idempotencyKey: 'pay-INV-2001' },
    );
    const error = await caught(
      process().payments.create(
        placed.order_id,
        { method: 'card', amount_cents: 3_000 },
        { idempotencyKey: 'pay-INV-2001' },
      ),
    );
    expect((error as { code?: string }).code).toMatch(/order_already_paid|amount_exceeds_order_total/);
    expect((error as CallError).idempotencyKey).toBe('pay-INV-2001');
    const message = (error as Error).message;
    expect(message).toContain(paid.payment_id);
    expect(message).toContain("idempotency key 'pay-INV-2001'");
    expect(message).toContain('fileStores(directory)');
    expect(message).not.toMatch(/correct the request/i);
    expect(paymentsOf(placed.order_id)).toHaveLength(1);
  });

  it('a refund: the error shows the payment as the service holds it', async () => {
    const placed = await process().orders.create(order('INV-2002', 3_000));
    const paid = await process().payments.create(placed.order_id, { method: 'card', amount_cents: 3_000 });
    mock.processor.approve(paid.payment_id);
    mock.processor.settle(paid.payment_id);
    const refund = () =>
      process().refunds.create(
        placed.order_id,
        paid.payment_id,
        { amount_cents: 3_000 },
        { idempotencyKey: 'refund-INV-2002' },
      );
    await refund();
    const error = await caught(refund());
    const message = (error as Error).message;
    expect(message).toContain(paid.payment_id);
    expect(message).toContain("idempotency key 'refund-INV-2002'");
    expect(message).toContain('survives');
    expect(mock.snapshot().refunds.filter((r) => r.payment_id === paid.payment_id)).toHaveLength(1);
  });
});
