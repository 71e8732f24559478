// The shared rate limit's local fast path (src/core/limits/limiter.ts): an instance leases a few slots of
// the shared bucket per store call and spends them without a round trip each, never more than the
// service's own bucket allows, with unused slots lapsing quickly. In one process, on fake time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/core/limits/limiter.js';
import { resolveRateLimit } from '../../src/core/limits/rate-limit.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../src/core/stores/rate-limit-store.js';
import {
  type BucketLimit,
  type BucketState,
  takeSlot,
  takeSlots,
} from '../../src/core/stores/token-bucket.js';

const KEY = 'partner-payments:rate:test';

/** A store that counts its calls; `withLease: false` is a store written before `lease` existed. */
function countingStore(withLease = true) {
  const inner = new MemoryRateLimitStore();
  const calls = { take: 0, lease: 0, pause: 0 };
  const store: RateLimitStore = {
    take(key, limit) {
      calls.take++;
      return inner.take(key, limit);
    },
    pause(key, limit, ms) {
      calls.pause++;
      return inner.pause(key, limit, ms);
    },
  };
  if (withLease) {
    store.lease = (key, limit, max) => {
      calls.lease++;
      return inner.lease(key, limit, max);
    };
  }
  return { store, calls };
}

/** Takes `n` slots one after the other (as sequential calls do), resolving the times they were granted. */
async function acquireSequentially(limiter: RateLimiter, n: number): Promise<number[]> {
  const at: number[] = [];
  for (let i = 0; i < n; i++) {
    await limiter.acquire(undefined, undefined);
    at.push(Date.now());
  }
  return at;
}

/** Runs `work` while fake time advances in small steps, until it settles. */
async function onFakeTime<T>(work: Promise<T>): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) await vi.advanceTimersByTimeAsync(5);
  return result;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the shared rate limit leases slots and spends them locally', () => {
  it('100 calls cost far fewer than 100 store calls', async () => {
    const { store, calls } = countingStore();
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), store, KEY, undefined);
    await onFakeTime(acquireSequentially(limiter, 100));
    expect(calls.take).toBe(0);
    expect(calls.lease).toBeGreaterThan(0);
    expect(calls.lease).toBeLessThanOrEqual(10);
  });

  it('control: a store without lease is asked once per call', async () => {
    const { store, calls } = countingStore(false);
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), store, KEY, undefined);
    await onFakeTime(acquireSequentially(limiter, 100));
    expect(calls.take).toBe(100);
  });

  it('takes a leased slot without a promise (the hot path)', async () => {
    const { store } = countingStore();
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), store, KEY, undefined);
    await limiter.acquire(undefined, undefined); // the first call leases
    expect(limiter.acquire(undefined, undefined)).toBeUndefined();
  });

  it('concurrent calls share one store call per lease', async () => {
    const { store, calls } = countingStore();
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), store, KEY, undefined);
    await onFakeTime(Promise.all(Array.from({ length: 40 }, () => limiter.acquire(undefined, undefined))));
    expect(calls.lease).toBeLessThanOrEqual(2);
  });

  it('3 instances on one bucket never overdraw the service bucket, even with the reserve taken away', async () => {
    const limit = resolveRateLimit({ tier: 'standard' });
    const shared = new MemoryRateLimitStore();
    const instances = [0, 1, 2].map(() => new RateLimiter(limit, shared, KEY, undefined));
    const granted: number[] = [];
    const run = (limiter: RateLimiter, n: number) =>
      Promise.all(
        Array.from({ length: n }, async () => {
          await limiter.acquire(undefined, undefined);
          granted.push(Date.now());
        }),
      );
    // A few calls (leases left partly unspent), a quiet spell long enough to fill the shared bucket
    // again, then bursts: slots leased before the spell must not be spent on top of a full bucket.
    await onFakeTime(Promise.all(instances.map((limiter) => run(limiter, 3))));
    await vi.advanceTimersByTimeAsync(5_000);
    await onFakeTime(Promise.all(instances.map((limiter) => run(limiter, 60))));
    await vi.advanceTimersByTimeAsync(5_000);
    await onFakeTime(Promise.all(instances.map((limiter) => run(limiter, 61))));
    expect(granted).toHaveLength(3 * (3 + 60 + 61));
    // The service's bucket (no reserve): every request must find a slot in it when it arrives.
    const service: BucketLimit = { ...limit, reserve: 0 };
    let state: BucketState | undefined;
    for (const at of granted.sort((a, b) => a - b)) {
      const take = takeSlot(state, service, at);
      expect(take.waitMs).toBe(0);
      state = take.state;
    }
  });

  it('slots one instance holds are not drawn again by another once the shared bucket refills', async () => {
    // A slow refill and a big burst: an instance that leased 8 slots from a full bucket and spent
    // one holds 7 while the bucket refills; another instance that then drains the bucket must not
    // get those 7 again.
    const limit = resolveRateLimit({ perSecond: 1, burst: 40 });
    const shared = new MemoryRateLimitStore();
    const [a, b] = [0, 1].map(() => new RateLimiter(limit, shared, KEY, undefined)) as [
      RateLimiter,
      RateLimiter,
    ];
    const granted: number[] = [];
    const take = async (limiter: RateLimiter, n: number) => {
      for (let i = 0; i < n; i++) {
        await limiter.acquire(undefined, undefined);
        granted.push(Date.now());
      }
    };
    await onFakeTime(take(a, 6)); // leases of 2 and 4, spent: the next lease is 8
    await vi.advanceTimersByTimeAsync(60_000); // the bucket is full again
    await onFakeTime(take(a, 1)); // leases 8, holds 7
    await vi.advanceTimersByTimeAsync(7_500); // the bucket has refilled 7.5 of the 8
    await onFakeTime(Promise.all([take(b, 40), take(a, 7)]));
    const service: BucketLimit = { ...limit, reserve: 0 };
    let state: BucketState | undefined;
    for (const at of granted.sort((x, y) => x - y)) {
      const slot = takeSlot(state, service, at);
      expect(slot.waitMs).toBe(0);
      state = slot.state;
    }
  });

  it('unused leased slots lapse: later calls go back to the store and the bucket is not drawn twice', async () => {
    const { store, calls } = countingStore();
    const limit = resolveRateLimit({ tier: 'standard' });
    const limiter = new RateLimiter(limit, store, KEY, undefined);
    await onFakeTime(acquireSequentially(limiter, 5));
    const leases = calls.lease;
    vi.advanceTimersByTime(2_000);
    await limiter.acquire(undefined, undefined);
    expect(calls.lease).toBe(leases + 1);
  });

  it('a 429 drops the lease: the next call waits for the paused shared bucket', async () => {
    const { store, calls } = countingStore();
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), store, KEY, undefined);
    await onFakeTime(acquireSequentially(limiter, 3));
    limiter.backoff(1_000);
    const started = Date.now();
    await onFakeTime(Promise.resolve(limiter.acquire(undefined, undefined)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(calls.pause).toBe(1);
  });

  it('keeps the deadline: RateLimitError at once when the shared bucket has no slot in time', async () => {
    const { store } = countingStore();
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'low' }), store, KEY, undefined);
    limiter.backoff(10_000);
    const started = Date.now();
    await expect(limiter.acquire(undefined, Date.now() + 500)).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
    });
    expect(Date.now() - started).toBeLessThan(50);
  });

  it('works on the local bucket while the store is down, with one warning for the outage', async () => {
    const lines: string[] = [];
    const down: RateLimitStore = {
      take: () => Promise.reject(new Error('connection refused')),
      pause: () => Promise.reject(new Error('connection refused')),
      lease: () => Promise.reject(new Error('connection refused')),
    };
    const limiter = new RateLimiter(resolveRateLimit({ tier: 'high' }), down, KEY, (level, line) =>
      lines.push(`${level} ${line}`),
    );
    const granted = await onFakeTime(acquireSequentially(limiter, 30));
    expect(granted).toHaveLength(30);
    expect(lines).toEqual([
      expect.stringMatching(/^warn the rate-limit store failed \(connection refused\)/),
    ]);
  });

  it('takeSlots leases as many slots as leave the reserve, at most the number asked', () => {
    const limit = resolveRateLimit({ tier: 'standard' }); // burst 50, reserve 5
    expect(takeSlots(undefined, limit, 0, 8)).toMatchObject({ taken: 8, waitMs: 0 });
    expect(takeSlots({ tokens: 9.5, updatedMs: 0 }, limit, 0, 8)).toMatchObject({ taken: 4, waitMs: 0 });
    expect(takeSlots({ tokens: 5.5, updatedMs: 0 }, limit, 0, 8).taken).toBe(0);
  });
});
