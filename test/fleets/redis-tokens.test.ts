// Across processes, on a real Redis: one token for the fleet, one re-mint after the token dies, and
// calls that keep working through a Redis outage. Each proof has a control run without the store.
import { describe, expect, it } from 'vitest';
import type { RateLimit } from '../../src/index.js';
import { resetCounts } from './counting-mock.js';
import { makeDeliveries, runsPerEvent, SECRET } from './deliveries.js';
import { startRedis } from './engines.js';
import type { StoreKind } from './protocol.js';
import { useFleet } from './suite.js';

const suite = useFleet(4, startRedis, { rateLimits: false });

/** A fresh machine client in every worker; workers alternate node-redis and ioredis. */
async function clients(name: string, store: StoreKind, redisUrl = suite.engine.url, rateLimit?: RateLimit) {
  const { fleet, m } = suite;
  const { options, orderId } = await m.fleetClient();
  await fleet.all((i) => ({
    op: 'client',
    name,
    store,
    options,
    redisUrl,
    ...(rateLimit ? { rateLimit } : {}),
    flavour: i % 2 ? 'ioredis' : 'node-redis',
  }));
  resetCounts(m);
  return orderId;
}

describe('a shared token on Redis, across 4 processes', () => {
  it('makes exactly 1 token request for 4 processes x 50 concurrent calls', async () => {
    const { fleet, m } = suite;
    const orderId = await clients('cold', 'redis');
    const replies = await fleet.all({ op: 'get', name: 'cold', orderId, n: 50 });
    expect(replies.map((r) => r.succeeded)).toEqual([50, 50, 50, 50]);
    expect(m.counts.token).toBe(1);
    expect(replies.reduce((sum, r) => sum + (r.minted ?? 0), 0)).toBe(1);
  });

  it('control: without a shared store every process mints its own token', async () => {
    const { fleet, m } = suite;
    const orderId = await clients('alone', 'none');
    const replies = await fleet.all({ op: 'get', name: 'alone', orderId, n: 50 });
    expect(replies.map((r) => r.succeeded)).toEqual([50, 50, 50, 50]);
    expect(m.counts.token).toBe(4);
  });

  it('re-mints at most once per process when the token dies mid-run, and the fleet recovers', async () => {
    const { fleet, m } = suite;
    const orderId = await clients('expiring', 'redis');
    await fleet.all({ op: 'get', name: 'expiring', orderId, n: 20 });
    expect(m.counts.token).toBe(1);
    m.mock.clock.advance(2 * 3600_000); // the service now answers 401 token_expired to the fleet's token
    resetCounts(m);
    const replies = await fleet.all({ op: 'get', name: 'expiring', orderId, n: 50 });
    expect(replies.map((r) => r.succeeded)).toEqual([50, 50, 50, 50]);
    expect(replies.map((r) => r.minted)).toSatisfy((minted: number[]) => minted.every((n) => n <= 2));
    expect(m.counts.token).toBeGreaterThanOrEqual(1);
    expect(m.counts.token).toBeLessThanOrEqual(fleet.size); // at most one re-mint per process
    // The fleet carries on with the one token it now shares.
    resetCounts(m);
    const after = await fleet.all({ op: 'get', name: 'expiring', orderId, n: 10 });
    expect(after.map((r) => r.failures?.[0])).toEqual([undefined, undefined, undefined, undefined]);
    expect(after.map((r) => r.succeeded)).toEqual([10, 10, 10, 10]);
    expect(m.counts.token).toBe(0);
  });

  it('keeps calls succeeding through a Redis outage, with one warning per process', async () => {
    const { fleet, m } = suite;
    const own = await startRedis();
    try {
      // A limit far above the calls made: every call takes its slot from Redis.
      const orderId = await clients('outage', 'redis', own.url, { perSecond: 10_000, burst: 10_000 });
      await fleet.all({ op: 'get', name: 'outage', orderId, n: 10 });
      await own.stop('SIGKILL');
      const replies = await fleet.all({ op: 'get', name: 'outage', orderId, n: 30 });
      expect(replies.map((r) => r.failures)).toEqual([[], [], [], []]);
      expect(replies.map((r) => r.succeeded)).toEqual([30, 30, 30, 30]);
      expect(m.counts.token).toBe(1); // the local token carried on
      // One warning per process for the whole outage, not one per call.
      expect(replies.map((r) => r.warnings?.length)).toEqual([1, 1, 1, 1]);
      expect(replies[0]!.warnings![0]).toMatch(/rate-limit store failed .*working on local state/);
    } finally {
      await own.stop();
    }
  });
});

describe('webhook de-duplication on Redis, across 4 receivers', () => {
  it('runs each handler exactly once per event when 4 receivers get the same 100 events, shuffled and duplicated', async () => {
    const { fleet, engine: redis } = suite;
    const { ids, perReceiver } = makeDeliveries(fleet.size);
    const replies = await fleet.all((i) => ({
      op: 'dedupe',
      store: 'redis',
      redisUrl: redis.url,
      flavour: i % 2 ? 'ioredis' : 'node-redis',
      secret: SECRET,
      deliveries: perReceiver[i]!,
    }));
    const runs = runsPerEvent(
      ids,
      replies.map((r) => r.handled ?? []),
    );
    expect([...new Set(runs.values())]).toEqual([1]);
    expect(runs.size).toBe(100);
  });

  it('control: with a de-duplication memory per receiver, handlers run several times', async () => {
    const { fleet } = suite;
    const { ids, perReceiver } = makeDeliveries(fleet.size);
    const replies = await fleet.all((i) => ({
      op: 'dedupe',
      store: 'none',
      secret: SECRET,
      deliveries: perReceiver[i]!,
    }));
    const runs = runsPerEvent(
      ids,
      replies.map((r) => r.handled ?? []),
    );
    expect(Math.max(...runs.values())).toBe(fleet.size);
  });
});
