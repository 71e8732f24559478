// Exactly-once payments across processes on a real PostgreSQL 15 (issue 23): 3 processes charging 300
// orders through lost answers and a SIGKILL, then a rerun and recover(); 3 processes racing on one key.
// The control runs (a memory intent store per process, caught charging twice) are in intents-redis.
import { describe, expect, it } from 'vitest';
import { audit, crashRun, expectExactlyOnce, figures } from './crash-recovery.js';
import { startPostgres } from './engines.js';
import { raceOnKeys } from './key-race.js';
import { useFleet, useIntentStore } from './suite.js';

// The mock's clock follows real time: payments' created_at and its Date header are what a real
// service's would be for processes that read their own clocks.
const suite = useFleet(3, startPostgres, { rateLimits: false, clock: { realTime: true } });
const intentStore = useIntentStore(suite, 'postgres');

describe('a crash mid-run on PostgreSQL (3 processes)', () => {
  it('charges each of 300 orders exactly once through lost answers, a SIGKILL, a rerun with the same keys and recover()', async () => {
    const store = intentStore();
    const run = await crashRun(suite, {
      intents: 'postgres',
      store,
      orders: 300,
      killAfter: { fleet: 100, victim: 20 },
    });
    const found = audit(suite, run.charges);
    console.info(`crash recovery on PostgreSQL:\n  ${figures(run, found)}`);
    await expectExactlyOnce(run, found, store);
  });
});

describe('3 processes racing on one key, on PostgreSQL', () => {
  it('make one payment per key, and every process returns that payment', async () => {
    const race = await raceOnKeys(suite, 'postgres', 8);
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
});
