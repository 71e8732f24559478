// A payment lands and its answer is lost; every attempt of the reconciliation's first order read
// fails (the read and its maxRetries: a 503 each, or a 200 whose JSON was cut in half, which
// src/core/limits/retry.ts treats as a lost answer), then the service answers again. The order can
// be read well within the call's deadline, so the call must read it again and return the payment
// (docs/idempotency.md: a read is safe to repeat). Giving up at the first read that ran out of
// retries is what left the chaos soak's last payment calls outcomeUnknown, "the service's records
// could not be read" (docs/reliability.md).
import { expect, it } from 'vitest';
import { MemoryIntentStore, PaymentsClient, type ReconcileEvent, SCOPES } from '../../src/index.js';
import type { FaultSpec } from '../../src/testing/index.js';
import { loopbackMock, throughFetch } from '../helpers/loopback-mock.js';

const loop = loopbackMock({ front: throughFetch });

const FAILED_READS: [string, Omit<FaultSpec, 'method' | 'path'>][] = [
  ['a 503', { status: 503, times: 3 }],
  ['a truncated 200', { phase: 'after', body: 'truncated', times: 3 }],
];

it.each(FAILED_READS)(
  'a reconciliation read whose every attempt got %s is read again within the deadline, and the payment is returned',
  async (_name, fault) => {
    const client = new PaymentsClient({
      ...loop.clientOptions(),
      scopes: [...SCOPES],
      settleMs: 50,
      maxRetries: 2,
      intentStore: new MemoryIntentStore(),
    });
    const events: ReconcileEvent[] = [];
    client.on('reconcile', (e) => events.push(e));
    const { order_id: orderId } = await client.orders.create({
      location_id: loop.mock.fixtures.partners[0]!.locations.payments,
      total_cents: 5_000,
    });
    // The payment is committed, its answer lost (a 500 after the commit).
    loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', status: 500 });
    // The first read and its two retries fail; the next read is answered.
    loop.mock.failNext({ method: 'GET', path: `/pos/v1/orders/${orderId}`, ...fault } as FaultSpec);
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
    const landed = loop.mock
      .snapshot()
      .payments.filter((p) => p.order_id === orderId)
      .map((p) => p.payment_id);
    expect(landed).toHaveLength(1);
    // Before the fix: outcomeUnknown at once, with 9.9 s of the deadline unused.
    expect((result.error as Error | undefined)?.message).toBeUndefined();
    expect(result.payment?.payment_id).toBe(landed[0]);
    expect(events.at(-1)?.outcome).toBe('landed');
  },
);
