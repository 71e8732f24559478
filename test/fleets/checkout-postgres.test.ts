// Issue 40 on a real PostgreSQL 15: a checkout (`client.charge`) killed with SIGKILL at each point of
// its flow, then rerun with the same key by a fresh process: one order and one payment. (The control,
// the naive order-then-payment caught by the same count, is in checkout-redis.test.ts.)
import { describe, expect, it } from 'vitest';
import { expectOneOfEach, killAndRerun } from './checkout-crash.js';
import { startPostgres } from './engines.js';
import { useFleet } from './suite.js';

const suite = useFleet(3, startPostgres, { rateLimits: false, clock: { realTime: true } });

describe('a checkout killed mid-flow on PostgreSQL, then rerun by a fresh process', () => {
  it.each([
    ['order-answer', { orders: 1, payments: 0 }],
    ['before-payment', { orders: 1, payments: 0 }],
    ['payment-held', { orders: 1, payments: 0 }],
    ['payment-answer', { orders: 1, payments: 1 }],
  ] as const)('killed at %s: one order, one payment', async (point, atKill) => {
    const run = await killAndRerun(suite, { intents: 'postgres', point });
    expect({ orders: run.atKill.orders, payments: run.atKill.payments }).toEqual(atKill);
    expectOneOfEach(run, point);
  });

  it('killed with the payment made and its answer held: recover() reports the key landed, the rerun returns that payment', async () => {
    const run = await killAndRerun(suite, {
      intents: 'postgres',
      point: 'payment-answer',
      recoverFirst: true,
    });
    const mine = run.recovered?.filter((r) => r.idempotencyKey === run.key);
    expect(mine).toEqual([
      expect.objectContaining({ outcome: 'landed', paymentId: run.final.paymentIds[0] }),
    ]);
    expectOneOfEach(run, 'payment-answer');
  });
});
