// Issue 40 on a real Redis and a real PostgreSQL 15, the same checks on each: a checkout
// (`client.charge`) killed with SIGKILL at each point of its flow, then rerun with the same key by a
// fresh process: one order and one payment. And 3 processes checking out the same 300 carts with lost
// answers and a SIGKILL. The controls run the naive order-then-payment (no key on the order) through
// the same kill and count, which catch it making a second order and a second payment; they do not
// depend on the engine, so they run once, with Redis.
import { describe, expect, it } from 'vitest';
import { expectOneOfEach, expectRecoveredLanded, killAndRerun } from './checkout-crash.js';
import { auditCheckout, checkoutFleet, expectOneEach } from './checkout-fleet.js';
import { startPostgres, startRedis } from './engines.js';
import { useFleet, useIntentStore } from './suite.js';

const ENGINES = [
  { name: 'Redis', intents: 'redis', start: startRedis },
  { name: 'PostgreSQL', intents: 'postgres', start: startPostgres },
] as const;

describe.each(ENGINES)('$name', ({ name, intents, start }) => {
  const suite = useFleet(3, start, { rateLimits: false, clock: { realTime: true } });
  const store = useIntentStore(suite, intents);

  describe(`a checkout killed mid-flow on ${name}, then rerun by a fresh process`, () => {
    it.each([
      ['order-answer', { orders: 1, payments: 0 }],
      ['before-payment', { orders: 1, payments: 0 }],
      ['payment-held', { orders: 1, payments: 0 }],
      ['payment-answer', { orders: 1, payments: 1 }],
    ] as const)('killed at %s: one order, one payment', async (point, atKill) => {
      const run = await killAndRerun(suite, { intents, point });
      expect({ orders: run.atKill.orders, payments: run.atKill.payments }).toEqual(atKill);
      expectOneOfEach(run, point);
    });

    it('killed with the payment made and its answer held: recover() reports the key landed, the rerun returns that payment', async () => {
      const run = await killAndRerun(suite, {
        intents,
        point: 'payment-answer',
        recoverFirst: true,
        store: store(),
      });
      expectRecoveredLanded(run);
    });

    it.runIf(intents === 'redis')(
      'control (Redis): the naive order-then-payment, killed and rerun alike, makes a second order and a second payment (the count catches it)',
      async () => {
        const run = await killAndRerun(suite, { intents: 'redis', point: 'payment-answer', way: 'naive' });
        expect(run.killed).toBe(true);
        expect(run.rerun.error).toBeUndefined();
        expect({
          orders: run.final.orders,
          orderCreations: run.final.orderCreations,
          payments: run.final.payments,
        }).toEqual({ orders: 2, orderCreations: 2, payments: 2 });
      },
    );
  });

  describe(`3 processes checking out the same 300 carts on ${name}, with lost answers and a SIGKILL`, () => {
    it("every cart has one order and one payment after a fresh process reruns the killed one's carts", async () => {
      const run = await checkoutFleet(suite, { intents, store: store(), carts: 300, killAt: 150 });
      const found = auditCheckout(run);
      console.info(`checkout fleet on ${name}:\n  ${found.figures}`);
      expectOneEach(run, found);
    }, 300_000);

    it.runIf(intents === 'redis')(
      'control (Redis): the naive order-then-payment through the same run makes carts a second order and payment (the audit catches it)',
      async () => {
        const run = await checkoutFleet(suite, {
          intents: 'redis',
          store: store(),
          carts: 30,
          killAt: 20,
          way: 'naive',
        });
        const found = auditCheckout(run);
        console.info(`control, naive checkout:\n  ${found.figures}`);
        // Every process made its own order of every cart, and the fresh process one more.
        expect(found.ordersNot1).toHaveLength(30);
        expect(found.paymentsNot1.length).toBeGreaterThan(20);
      },
      120_000,
    );
  });
});
