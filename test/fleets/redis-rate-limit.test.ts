// Across processes, on a real Redis: 3 processes on the `low` tier share one bucket and never draw a
// 429 from the mock's own limiter; without the shared store they do.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/limits/limiter.js';
import { resolveRateLimit } from '../../src/core/limits/rate-limit.js';
import { type RedisClientLike, redisStores } from '../../src/stores/index.js';
import { resetCounts } from './counting-mock.js';
import { startRedis } from './engines.js';
import type { StoreKind } from './protocol.js';
import { useFleet } from './suite.js';

// A real-time mock clock: the mock's buckets refill as the SDK's do.
const suite = useFleet(3, startRedis, { clock: { realTime: true } });

/** How late an arrival may be stamped after its slot was taken (see the test's comment). */
const ARRIVAL_SKEW_MS = 250;
/** The most calls the low tier's bucket (10 at once, then 5/s) lets through in `ms`, with that skew. */
const allowed = (ms: number) => 10 + Math.floor((5 * (ms + ARRIVAL_SKEW_MS)) / 1000);

/** The most successful calls the mock answered within any window of `ms`. */
function busiest(arrivals: number[], ms: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! > ms) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

async function lowTierFleet(name: string, store: StoreKind) {
  const { fleet, m, engine: redis } = suite;
  const { options, orderId } = await m.fleetClient('low');
  await fleet.all({ op: 'client', name, store, options, redisUrl: redis.url, rateLimit: { tier: 'low' } });
  resetCounts(m);
  return orderId;
}

describe('a shared rate limit on Redis, across 3 processes on the low tier (10 at once, then 5/s)', () => {
  it('draws no 429 from the service and never overdraws its bucket', async () => {
    const { fleet, m } = suite;
    const orderId = await lowTierFleet('shared', 'redis');
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

  it('control: with a limiter per process, the fleet overdraws the bucket and collects 429s', async () => {
    const { fleet, m } = suite;
    const orderId = await lowTierFleet('alone', 'none');
    await fleet.all({ op: 'get', name: 'alone', orderId, n: 8 }); // each process alone lets 8 through at once
    expect(m.counts.status429).toBeGreaterThan(0);
  });
});

describe('the Redis rate-limit store leases slots (the local fast path)', () => {
  /** An ioredis client that counts the scripts it runs. */
  async function countingRedis() {
    const redis = new Redis(suite.engine.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    await redis.connect();
    const counted = { scripts: 0 };
    const client: RedisClientLike = {
      call: (command: string, ...args: (string | number)[]) => {
        if (command === 'EVAL') counted.scripts++;
        return redis.call(command, ...args);
      },
    };
    return { client, counted, close: () => redis.disconnect() };
  }

  it('100 calls of one instance cost far fewer than 100 script calls', async () => {
    const { client, counted, close } = await countingRedis();
    try {
      const { rateLimitStore } = redisStores(client);
      const limiter = new RateLimiter(
        resolveRateLimit({ tier: 'high' }),
        rateLimitStore,
        'partner-payments:rate:lease-test',
        undefined,
      );
      for (let i = 0; i < 100; i++) await limiter.acquire(undefined, undefined);
      expect(counted.scripts).toBeGreaterThan(0);
      expect(counted.scripts).toBeLessThanOrEqual(10);
    } finally {
      close();
    }
  });

  it('a lease takes as many slots as leave the reserve, at most the number asked', async () => {
    const { client, close } = await countingRedis();
    try {
      const { rateLimitStore } = redisStores(client);
      const limit = resolveRateLimit({ tier: 'low' }); // burst 10, reserve 1.25
      const key = 'partner-payments:rate:lease-arithmetic';
      expect(await rateLimitStore.lease!(key, limit, 4)).toEqual({ taken: 4, waitMs: 0 }); // 6 left
      expect(await rateLimitStore.lease!(key, limit, 8)).toEqual({ taken: 4, waitMs: 0 }); // 2 left, >= reserve
      const empty = await rateLimitStore.lease!(key, limit, 8);
      expect(empty.taken).toBe(0);
      expect(empty.waitMs).toBeGreaterThan(0);
      expect(await rateLimitStore.take(key, limit)).toBeGreaterThan(0); // take sees the same bucket
    } finally {
      close();
    }
  });
});
