// api.md 19: a call's deadline bounds everything it does, its reconciliation reads included. The
// send keeps a reserve of the deadline for a read, so a lost answer is still settled in time when the
// service answers reads; when the deadline comes first, the call ends outcomeUnknown with its key
// open, and a rerun returns the one payment. The mock's clock holds the slow answers (manual clock).
import { describe, expect, it } from 'vitest';
import { MemoryIntentStore, PaymentsClient, SCOPES } from '../../src/index.js';
import { loopbackMock, throughFetch } from '../helpers/loopback-mock.js';

const loop = loopbackMock({ front: throughFetch });
const DEADLINE_MS = 800;
/** Timer and scheduling jitter on a loaded 2-core machine; a call that ignored its deadline takes seconds. */
const SLACK_MS = 250;
const PAYMENT = { method: 'card', amount_cents: 1_000 } as const;
const paymentsOf = (orderId: string) =>
  loop.mock
    .snapshot()
    .payments.filter((p) => p.order_id === orderId)
    .map((p) => p.payment_id);

async function setup() {
  const intentStore = new MemoryIntentStore();
  const client = new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    settleMs: 50,
    intentStore,
  });
  const order = await client.orders.create({
    location_id: loop.mock.fixtures.partners[0]!.locations.payments,
    total_cents: 5_000,
  });
  return { client, intentStore, orderId: order.order_id };
}

/** The time a promise takes to settle, and how it settled. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe("a payment's deadline covers its reconciliation", () => {
  it('a lost answer whose order read hangs ends within the deadline, outcomeUnknown; a rerun returns the one payment', async () => {
    const { client, intentStore, orderId } = await setup();
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    // The read of the order waits for the mock clock (manual: it moves only when this test moves it).
    loop.mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, delayMs: 1 });
    const call = await timed(
      client.payments.create(orderId, PAYMENT, { idempotencyKey: 'slow-read', deadlineMs: DEADLINE_MS }),
    );
    expect(call.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(call.error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'slow-read' });
    expect(paymentsOf(orderId)).toHaveLength(1); // it was charged
    expect(await intentStore.get('slow-read')).toMatchObject({ state: 'unknown' });

    loop.mock.clock.advance(1); // the held read answers; the service answers reads again
    const payment = await client.payments.create(orderId, PAYMENT, { idempotencyKey: 'slow-read' });
    expect(paymentsOf(orderId)).toEqual([payment.payment_id]);
  });

  it('a lost answer with a prompt read is adopted within the deadline', async () => {
    const { client, orderId } = await setup();
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    const call = await timed(
      client.payments.create(orderId, PAYMENT, { idempotencyKey: 'prompt-read', deadlineMs: DEADLINE_MS }),
    );
    expect(call.error).toBeUndefined();
    expect(call.ms).toBeLessThan(DEADLINE_MS);
    expect(paymentsOf(orderId)).toEqual([call.value?.payment_id]);
  });

  it('an answer held past the deadline: the send ends early enough for a read, and the payment is adopted in time', async () => {
    const { client, orderId } = await setup();
    // The service commits the payment, then holds its answer (until the mock clock moves).
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', delayMs: 1 });
    const call = await timed(
      client.payments.create(orderId, PAYMENT, { idempotencyKey: 'held-answer', deadlineMs: DEADLINE_MS }),
    );
    loop.mock.clock.advance(1);
    expect(call.error).toBeUndefined();
    expect(call.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(paymentsOf(orderId)).toEqual([call.value?.payment_id]);
  });

  it('client.charge: one deadline over the order and the payment, reconciliation included', async () => {
    const { client, intentStore } = await setup();
    // The read delayed below is the reconciliation's: on a store that survives a restart the charge
    // reads nothing before its payment (on the default store it reads the order first: restart.test.ts).
    Object.defineProperty(intentStore, 'durable', { value: true });
    const location = loop.mock.fixtures.partners[0]!.locations.payments;
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    loop.mock.failNext({ method: 'GET', path: /\/pos\/v1\/orders\/[^/]+$/, delayMs: 1 });
    const params = { idempotencyKey: 'checkout-slow', order: { location_id: location, total_cents: 700 } };
    const call = await timed(client.charge(params, { deadlineMs: DEADLINE_MS }));
    expect(call.ms).toBeLessThan(DEADLINE_MS + SLACK_MS);
    expect(call.error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'checkout-slow' });
    loop.mock.clock.advance(1);
    const { order, payment } = await client.charge(params);
    expect(paymentsOf(order.order_id)).toEqual([payment.payment_id]);
  });
});
