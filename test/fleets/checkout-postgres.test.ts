// Issue 40 on a real PostgreSQL 15: a checkout (`client.charge`) killed with SIGKILL at each point of
// its flow, then rerun with the same key by a fresh process: one order and one payment. (The control,
// the naive order-then-payment caught by the same count, is in checkout-redis.test.ts.) And 3
// processes checking out the same 300 carts with lost answers and a SIGKILL.
import { describe, expect, it } from 'vitest';
import { expectOneOfEach, expectRecoveredLanded, killAndRerun } from './checkout-crash.js';
import { auditCheckout, checkoutFleet, expectOneEach } from './checkout-fleet.js';
import { startPostgres } from './engines.js';
import { useFleet, useIntentStore } from './suite.js';

const suite = useFleet(3, startPostgres, { rateLimits: false, clock: { realTime: true } });
const store = useIntentStore(suite, 'postgres');

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
      store: store(),
    });
    expectRecoveredLanded(run);
  });
});

describe('3 processes checking out the same 300 carts on PostgreSQL, with lost answers and a SIGKILL', () => {
  it("every cart has one order and one payment after a fresh process reruns the killed one's carts", async () => {
    const run = await checkoutFleet(suite, { intents: 'postgres', store: store(), carts: 300, killAt: 150 });
    const found = auditCheckout(run);
    console.info(`checkout fleet on PostgreSQL:\n  ${found.figures}`);
    expectOneEach(run, found);
  }, 300_000);
});
