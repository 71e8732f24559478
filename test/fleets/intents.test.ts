// Exactly-once payments across processes on a real Redis and a real PostgreSQL 15 (issue 23), the
// same checks on each: 3 processes charging 300 orders through lost answers and a SIGKILL, then a
// rerun and recover(); 3 processes racing on one key. The controls (a memory intent store per
// process, which the same checks catch charging twice) do not depend on the engine: they run once,
// with Redis.
import { describe, expect, it } from 'vitest';
import { audit, crashRun, expectExactlyOnce, figures } from './crash-recovery.js';
import { DEADLINE_MS, deadHolder, KEYS } from './dead-holder.js';
import { startPostgres, startRedis } from './engines.js';
import { raceOnKeys } from './key-race.js';
import { useFleet, useIntentStore } from './suite.js';

const ENGINES = [
  {
    name: 'Redis',
    crashName: 'Redis (3 processes, node-redis and ioredis)',
    intents: 'redis',
    start: startRedis,
  },
  { name: 'PostgreSQL', crashName: 'PostgreSQL (3 processes)', intents: 'postgres', start: startPostgres },
] as const;

describe.each(ENGINES)('$name', ({ name, crashName, intents, start }) => {
  // The mock's clock follows real time: payments' created_at and its Date header are what a real
  // service's would be for processes that read their own clocks.
  const suite = useFleet(3, start, { rateLimits: false, clock: { realTime: true } });
  const intentStore = useIntentStore(suite, intents);

  describe(`a crash mid-run on ${crashName}`, () => {
    it('charges each of 300 orders exactly once through lost answers, a SIGKILL, a rerun with the same keys and recover()', async () => {
      const store = intentStore();
      const run = await crashRun(suite, {
        intents,
        store,
        orders: 300,
        killAfter: { fleet: 100, victim: 20 },
      });
      const found = audit(suite, run.charges);
      console.info(`crash recovery on ${name}:\n  ${figures(run, found)}`);
      await expectExactlyOnce(run, found, store);
    });

    it.runIf(intents === 'redis')(
      'control (Redis): with a memory intent store per process, the same run charges orders twice (the audit catches it)',
      async () => {
        const run = await crashRun(suite, {
          intents: 'memory',
          orders: 60,
          killAfter: { fleet: 20, victim: 4 },
        });
        const found = audit(suite, run.charges);
        console.info(`control, memory store per process:\n  ${figures(run, found)}`);
        // The fresh process remembers nothing of its predecessor (its orders paid before the kill are
        // paid again), nor do the others of each other's keys (their swapped shares are paid again).
        expect(found.doubled.length).toBeGreaterThanOrEqual(run.kill.landedBefore + 40);
        expect(found.missing).toEqual([]);
      },
    );
  });

  describe(`3 processes racing on one key, on ${name}`, () => {
    it('make one payment per key, and every process returns that payment', async () => {
      const race = await raceOnKeys(suite, intents, 8);
      for (const [i, orderId] of race.orderIds.entries()) {
        const paid = race.payments.get(orderId)!;
        expect(paid).toHaveLength(1);
        const calls = race.outcomes.map((perProcess) => perProcess[i]!);
        expect(calls.map((c) => c.paymentId)).toEqual([paid[0], paid[0], paid[0]]);
        // A race: every process called while the key's one payment POST was in flight.
        for (const c of calls) expect(c.startedAt).toBeLessThan(race.heldUntil.get(orderId)!);
      }
      expect(race.posts).toBe(8);
      expect(race.lost).toBe(4);
    });

    it.runIf(intents === 'redis')(
      'control (Redis): with a memory intent store per process, each process charges the order (the check catches it)',
      async () => {
        const race = await raceOnKeys(suite, 'memory', 4);
        expect(race.orderIds.map((id) => race.payments.get(id)!.length)).toEqual([3, 3, 3, 3]);
      },
    );
  });

  describe(`a process killed while it holds keys, on ${name}`, () => {
    it(`its leases lapse in seconds: the survivors, with a ${DEADLINE_MS / 1_000} s deadline, each return the order's one payment`, async () => {
      const run = await deadHolder(suite, intents);
      const slowest = Math.max(...run.outcomes.flat().map((o) => o.tookMs));
      console.info(
        `dead holder on ${name}: ${run.committed.size} of ${KEYS} payments committed before the kill; ` +
          `the survivors' calls took at most ${slowest} ms`,
      );
      expect(run.committed.size).toBe(KEYS / 2);
      for (const [i, orderId] of run.orderIds.entries()) {
        const paid = run.payments.get(orderId)!;
        expect(paid, orderId).toHaveLength(1);
        expect(run.processed.get(orderId), orderId).toBe(1);
        for (const perSurvivor of run.outcomes) {
          const o = perSurvivor[i]!;
          expect(o.error, `${orderId}: ${o.error?.message}`).toBeUndefined();
          expect(o.paymentId).toBe(paid[0]);
        }
      }
      // The lease (6 s) plus a reconciliation, not the dead holder's 60 s deadline.
      expect(slowest).toBeLessThan(15_000);
    });
  });
});
