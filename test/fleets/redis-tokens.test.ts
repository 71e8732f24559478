// Across processes, on a real Redis: one token for the fleet, one re-mint after the token dies, and
// calls that keep working through a Redis outage. Each proof has a control run without the store.
import { describe, expect, it } from 'vitest';
import { makeDeliveries, runsPerEvent, SECRET } from './deliveries.js';
import { startRedis } from './engines.js';
import { dedupeProofs, fleetClients, tokenProofs } from './redis-proofs.js';
import { useFleet } from './suite.js';

const suite = useFleet(4, startRedis, { rateLimits: false });

describe('a shared token on Redis, across 4 processes', () => {
  tokenProofs(suite);

  it('control: without a shared store every process mints its own token', async () => {
    const { fleet, m } = suite;
    const orderId = await fleetClients(suite, 'alone', 'none');
    const replies = await fleet.all({ op: 'get', name: 'alone', orderId, n: 50 });
    expect(replies.map((r) => r.succeeded)).toEqual([50, 50, 50, 50]);
    expect(m.counts.token).toBe(4);
  });

  it('keeps calls succeeding through a Redis outage, with one warning per process', async () => {
    const { fleet, m } = suite;
    const own = await startRedis();
    try {
      // A limit far above the calls made: every call takes its slot from Redis.
      const orderId = await fleetClients(suite, 'outage', 'redis', own.url, {
        perSecond: 10_000,
        burst: 10_000,
      });
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
  dedupeProofs(suite);

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
