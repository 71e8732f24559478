// Across processes, on a real Redis: 3 processes on the `low` tier share one bucket and never draw a
// 429 from the mock's own limiter; without the shared store they do.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/limits/limiter.js';
import { resolveRateLimit } from '../../src/core/limits/rate-limit.js';
import { type RedisClientLike, redisStores } from '../../src/stores/index.js';
import { startRedis } from './engines.js';
import { lowTierFleet, rateLimitProofs } from './redis-proofs.js';
import { useFleet } from './suite.js';

// A real-time mock clock: the mock's buckets refill as the SDK's do.
const suite = useFleet(3, startRedis, { clock: { realTime: true } });

describe('a shared rate limit on Redis, across 3 processes on the low tier (10 at once, then 5/s)', () => {
  rateLimitProofs(suite);

  it('control: with a limiter per process, the fleet overdraws the bucket and collects 429s', async () => {
    const { fleet, m } = suite;
    const orderId = await lowTierFleet(suite, 'alone', 'none');
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
