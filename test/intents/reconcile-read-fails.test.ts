// A payment whose answer was lost, and whose reconciliation cannot read the order (the reads fail or
// run out of the call's deadline): the call must still say the outcome is unknown, and leave its key
// unknown and free for a rerun or recover(), never answer as if nothing had been charged.
import { describe, expect, it } from 'vitest';
import {
  type IntentRecord,
  MemoryIntentStore,
  type Middleware,
  PaymentsClient,
  type ReconcileEvent,
  SCOPES,
} from '../../src/index.js';
import { loopbackMock, throughFetch } from '../helpers/loopback-mock.js';

const loop = loopbackMock({ front: throughFetch });

const PAYMENT = { method: 'card', amount_cents: 1_000 } as const;
const paymentsOf = (orderId: string) =>
  loop.mock
    .snapshot()
    .payments.filter((p) => p.order_id === orderId)
    .map((p) => p.payment_id);

/** While set, every GET fails before it is sent (an outage the reads cannot outlast). */
let outage = false;
const outageMiddleware: Middleware = (call, next) =>
  outage && call.method === 'GET' ? Promise.reject(new Error('the service is unreachable')) : next();

async function setup() {
  outage = false;
  const intentStore = new MemoryIntentStore();
  const client = new PaymentsClient({
    middleware: [outageMiddleware],
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    settleMs: 50,
    maxRetries: 0,
    intentStore,
  });
  const order = await client.orders.create({
    location_id: loop.mock.fixtures.partners[0]!.locations.payments,
    total_cents: 5_000,
  });
  return { client, intentStore, orderId: order.order_id };
}

describe('reconciliation that cannot read the order', () => {
  it('ends in outcomeUnknown, the key unknown and released, and a rerun then adopts the payment', async () => {
    const { client, intentStore, orderId } = await setup();
    const events: ReconcileEvent[] = [];
    client.on('reconcile', (e) => events.push(e));
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    // An outage longer than the call's deadline: every read of the order fails (a 503 for the first,
    // then a middleware failing every read until the outage ends).
    loop.mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, status: 503 });
    outage = true;
    const error = await client.payments
      .create(orderId, PAYMENT, { idempotencyKey: 'unread', deadlineMs: 500 })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(paymentsOf(orderId)).toHaveLength(1); // it was charged
    expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'unread' });
    expect(events.map((e) => e.outcome)).toEqual(['unknown']);
    const record = await intentStore.get('unread');
    expect(record).toMatchObject({ state: 'unknown' });
    // Released: recover() (which skips keys a live call holds) sees it at once.
    expect((await intentStore.unfinished(0)).map((r) => r.key)).toEqual(['unread']);

    outage = false; // the service answers again: a rerun with the key finds the payment
    const payment = await client.payments.create(orderId, PAYMENT, { idempotencyKey: 'unread' });
    expect(paymentsOf(orderId)).toEqual([payment.payment_id]);
  });

  it('in recover(): that key is reported unknown and released, and the other keys are still settled', async () => {
    const { client, intentStore, orderId } = await setup();
    const other = await client.orders.create({
      location_id: loop.mock.fixtures.partners[0]!.locations.payments,
      total_cents: 5_000,
    });
    // Two keys a dead process left open after sending (their leases lapsed); neither payment landed.
    const sentAt = Date.now() - 1_000;
    const orphan = (key: string, on: string): IntentRecord => ({
      key,
      kind: 'payment',
      fingerprint: key,
      orderId: on,
      amountCents: 1_000,
      method: 'card',
      state: 'open',
      sends: 1,
      firstSentAt: sentAt,
      lastSentAt: sentAt,
      createdAt: sentAt,
      updatedAt: sentAt,
    });
    await intentStore.begin(orphan('orphan-unread', orderId), 'dead-process', 1);
    await intentStore.begin(orphan('orphan-read', other.order_id), 'dead-process', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    loop.mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, status: 503 });
    const report = await client.recover({ olderThanMs: 0 }).catch((e: unknown) => e);
    expect(report).toEqual([
      expect.objectContaining({ idempotencyKey: 'orphan-unread', outcome: 'unknown' }),
      expect.objectContaining({ idempotencyKey: 'orphan-read', outcome: 'not_landed' }),
    ]);
    expect((await intentStore.unfinished(0)).map((r) => r.key)).toEqual(['orphan-unread']);
  });
});
