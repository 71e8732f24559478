// The fleet proofs of the Redis token, de-duplication and rate-limit stores across processes, run on
// a single Redis (redis-tokens.test.ts, redis-rate-limit.test.ts) and on a Redis Cluster
// (redis-cluster-*.test.ts): the suite's engine URL says which (cluster.ts). Their controls, which
// need no store, stay with the single-Redis files.
import { expect, it } from 'vitest';
import type { RateLimit } from '../../src/core/stores/token-bucket.js';
import { resetCounts } from './counting-mock.js';
import { makeDeliveries, runsPerEvent, SECRET } from './deliveries.js';
import type { StoreKind } from './protocol.js';
import type { FleetSuite } from './suite.js';

/** A fresh machine client in every worker; workers alternate node-redis and ioredis. */
export async function fleetClients(
  suite: FleetSuite,
  name: string,
  store: StoreKind,
  redisUrl = suite.engine.url,
  rateLimit?: RateLimit,
) {
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

/** One token for the fleet (one mint), and at most one re-mint per process after the token dies. */
export function tokenProofs(suite: FleetSuite): void {
  it('makes exactly 1 token request for 4 processes x 50 concurrent calls', async () => {
    const { fleet, m } = suite;
    const orderId = await fleetClients(suite, 'cold', 'redis');
    const replies = await fleet.all({ op: 'get', name: 'cold', orderId, n: 50 });
    expect(replies.map((r) => r.succeeded)).toEqual([50, 50, 50, 50]);
    expect(m.counts.token).toBe(1);
    expect(replies.reduce((sum, r) => sum + (r.minted ?? 0), 0)).toBe(1);
  });

  it('re-mints at most once per process when the token dies mid-run, and the fleet recovers', async () => {
    const { fleet, m } = suite;
    const orderId = await fleetClients(suite, 'expiring', 'redis');
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
}

/** Each of 100 events handled once by 4 receivers that get them shuffled and duplicated. */
export function dedupeProofs(suite: FleetSuite): void {
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
}

/** How late an arrival may be stamped after its slot was taken (see the test's comment). */
export const ARRIVAL_SKEW_MS = 250;
/** The most calls the low tier's bucket (10 at once, then 5/s) lets through in `ms`, with that skew. */
export const allowed = (ms: number) => 10 + Math.floor((5 * (ms + ARRIVAL_SKEW_MS)) / 1000);

/** The most successful calls the mock answered within any window of `ms`. */
export function busiest(arrivals: number[], ms: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! > ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

export async function lowTierFleet(suite: FleetSuite, name: string, store: StoreKind) {
  const { fleet, m, engine: redis } = suite;
  const { options, orderId } = await m.fleetClient('low');
  await fleet.all((i) => ({
    op: 'client',
    name,
    store,
    options,
    redisUrl: redis.url,
    rateLimit: { tier: 'low' },
    flavour: i % 2 ? 'ioredis' : 'node-redis',
  }));
  resetCounts(m);
  return orderId;
}

/** 3 processes on the `low` tier share one bucket: no 429, and no window overdrawn. */
export function rateLimitProofs(suite: FleetSuite): void {
  it('draws no 429 from the service and never overdraws its bucket', async () => {
    const { fleet, m } = suite;
    const orderId = await lowTierFleet(suite, 'shared', 'redis');
    const replies = await fleet.all({ op: 'get', name: 'shared', orderId, n: 5 });
    expect(replies.map((r) => r.failures)).toEqual([[], [], []]);
    expect(m.counts.status429).toBe(0);
    expect(m.arrivals).toHaveLength(15);
    // The bucket: 10 at once, then 5/s, so the 5 calls past the burst are spread over about a second.
    // A window of `ms` may hold 10 + 5/s x (ms + ARRIVAL_SKEW_MS): the arrivals are stamped when the
    // mock (in this process) reads each request, not when a process took its slot, and on a loaded
    // 2-core machine a request can sit that long between the two. A fleet whose limiter let all 15
    // through at once (the failure this guards against) still fails every window.
    const atOnce = m.arrivals.map(() => m.arrivals[0]!); // the control: 15 at the same moment
    for (const ms of [100, 400, 700]) {
      expect(busiest(m.arrivals, ms), `${ms} ms`).toBeLessThanOrEqual(allowed(ms));
      expect(busiest(atOnce, ms), `${ms} ms, the control`).toBeGreaterThan(allowed(ms));
    }
  });
}
