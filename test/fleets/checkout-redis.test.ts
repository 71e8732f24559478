// Issue 40 on a real Redis: a checkout (`client.charge`) killed with SIGKILL at each point of its flow,
// then rerun with the same key by a fresh process: one order and one payment. The control runs the
// naive order-then-payment (no key on the order) through the same kill and count, which catch it
// making a second order and a second payment.
import { describe, expect, it } from 'vitest';
import { expectOneOfEach, killAndRerun } from './checkout-crash.js';
import { startRedis } from './engines.js';
import { useFleet } from './suite.js';

const suite = useFleet(3, startRedis, { rateLimits: false, clock: { realTime: true } });

describe('a checkout killed mid-flow on Redis, then rerun by a fresh process', () => {
  it.each([
    ['order-answer', { orders: 1, payments: 0 }],
    ['before-payment', { orders: 1, payments: 0 }],
    ['payment-held', { orders: 1, payments: 0 }],
    ['payment-answer', { orders: 1, payments: 1 }],
  ] as const)('killed at %s: one order, one payment', async (point, atKill) => {
    const run = await killAndRerun(suite, { intents: 'redis', point });
    expect({ orders: run.atKill.orders, payments: run.atKill.payments }).toEqual(atKill);
    expectOneOfEach(run, point);
  });

  it('killed with the payment made and its answer held: recover() reports the key landed, the rerun returns that payment', async () => {
    const run = await killAndRerun(suite, { intents: 'redis', point: 'payment-answer', recoverFirst: true });
    const mine = run.recovered?.filter((r) => r.idempotencyKey === run.key);
    expect(mine).toEqual([
      expect.objectContaining({ outcome: 'landed', paymentId: run.final.paymentIds[0] }),
    ]);
    expectOneOfEach(run, 'payment-answer');
  });

  it('control: the naive order-then-payment, killed and rerun alike, makes a second order and a second payment (the count catches it)', async () => {
    const run = await killAndRerun(suite, { intents: 'redis', point: 'payment-answer', way: 'naive' });
    expect(run.killed).toBe(true);
    expect(run.rerun.error).toBeUndefined();
    expect({
      orders: run.final.orders,
      orderCreations: run.final.orderCreations,
      payments: run.final.payments,
    }).toEqual({ orders: 2, orderCreations: 2, payments: 2 });
  });
});
