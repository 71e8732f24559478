// The intent store on a Redis Cluster of three masters with a replica each (issue 42), through
// node-redis's and ioredis's cluster clients: the store contract, its keys spread over every master,
// and the cross-process proofs of intents.test.ts (300 orders through lost answers and a
// SIGKILL, then a rerun and recover(); 3 processes racing on one key), each process on a cluster client.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentRecord } from '../../src/index.js';
import { type RedisClientLike, redisStores } from '../../src/stores/index.js';
import { connectCluster, type RedisClusterEngine, startClusterEngine } from './cluster.js';
import { audit, crashRun, expectExactlyOnce, figures } from './crash-recovery.js';
import type { Engine } from './engines.js';
import { intentStoreContract } from './intent-store-contract.js';
import { raceOnKeys } from './key-race.js';
import { useFleet } from './suite.js';

const suite = useFleet(3, startClusterEngine, { rateLimits: false, clock: { realTime: true } });
const clients: Partial<Record<'node-redis' | 'ioredis', RedisClientLike>> = {};
const closers: (() => Promise<void>)[] = [];
const cluster = () => (suite.engine as Engine & { cluster: RedisClusterEngine }).cluster;

beforeAll(async () => {
  for (const flavour of ['node-redis', 'ioredis'] as const) {
    const { client, close } = await connectCluster(suite.engine.url, flavour);
    clients[flavour] = client;
    closers.push(close);
  }
});
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

intentStoreContract([
  ['redisStores(node-redis cluster).intentStore', () => redisStores(clients['node-redis']!).intentStore],
  ['redisStores(ioredis Cluster).intentStore', () => redisStores(clients.ioredis!).intentStore],
]);

describe('the intent store on a cluster of 3 masters', () => {
  it("spreads one store's keys over every master (an order's bucket is one hash slot)", async () => {
    const { intentStore } = redisStores(clients.ioredis!);
    const ns = randomUUID().slice(0, 8);
    const now = Date.now();
    for (let i = 0; i < 30; i++) {
      const draft: IntentRecord = {
        key: `${ns}-spread-${i}`,
        kind: 'payment',
        fingerprint: `fp-${i}`,
        orderId: `${ns}-order-${i}`,
        amountCents: 100,
        state: 'open',
        sends: 0,
        createdAt: now,
        updatedAt: now,
      };
      expect((await intentStore.begin(draft, 'owner', 60_000)).status).toBe('acquired');
    }
    const masters = (await cluster().nodes()).filter((n) => n.master && !n.failed);
    const perMaster = await Promise.all(
      masters.map(async (m) => {
        const listed = await cluster().cli(
          m.port,
          '--scan',
          '--pattern',
          `partner-payments:intent:*:key:${ns}-*`,
        );
        return listed.split('\n').filter(Boolean).length;
      }),
    );
    expect(perMaster).toHaveLength(3);
    expect(perMaster.every((n) => n > 0)).toBe(true);
    expect(perMaster.reduce((a, b) => a + b, 0)).toBe(30);
  });
});

describe('a crash mid-run on a Redis Cluster (3 processes, node-redis and ioredis cluster clients)', () => {
  // recover() settles every unfinished intent of the store: none of the contract's may be left.
  beforeAll(() => cluster().flush());
  it('charges each of 300 orders exactly once through lost answers, a SIGKILL, a rerun with the same keys and recover()', async () => {
    const store = redisStores(clients['node-redis']!).intentStore;
    const run = await crashRun(suite, {
      intents: 'redis',
      store,
      orders: 300,
      killAfter: { fleet: 100, victim: 20 },
    });
    const found = audit(suite, run.charges);
    console.info(`crash recovery on a Redis Cluster:\n  ${figures(run, found)}`);
    await expectExactlyOnce(run, found, store);
  });
});

describe('3 processes racing on one key, on a Redis Cluster', () => {
  it('make one payment per key, and every process returns that payment', async () => {
    const race = await raceOnKeys(suite, 'redis', 8);
    for (const [i, orderId] of race.orderIds.entries()) {
      const paid = race.payments.get(orderId)!;
      expect(paid).toHaveLength(1);
      const calls = race.outcomes.map((perProcess) => perProcess[i]!);
      expect(calls.map((c) => c.paymentId)).toEqual([paid[0], paid[0], paid[0]]);
      for (const c of calls) expect(c.startedAt).toBeLessThan(race.heldUntil.get(orderId)!);
    }
    expect(race.posts).toBe(8);
  });
});
