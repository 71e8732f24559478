/**
 * The contract of a store that shares one rate-limit bucket among a fleet (the `store` of the
 * `rateLimit` client option), and MemoryRateLimitStore, the in-process one.
 */
import { type BucketLimit, type BucketState, pauseBucket, takeSlot, takeSlots } from './token-bucket.js';

/**
 * Shares one bucket among every instance of a fleet. The SDK calls `take` before each attempt and
 * `pause` when a 429 arrives anyway. Both must be atomic in the store (Redis: one script).
 * `redisStores(client).rateLimitStore` from `partner-payments/stores` implements it.
 *
 * @example
 * import { redisStores } from 'partner-payments/stores';
 * const { rateLimitStore } = redisStores(redis);
 * const client = new PaymentsClient({ rateLimit: { tier: 'standard', store: rateLimitStore } });
 */
export interface RateLimitStore {
  /**
   * Takes one slot from bucket `key` when it holds at least `1 + limit.reserve` (refilled first; a
   * missing bucket is full). Resolves 0 when taken, else the milliseconds to wait before asking again.
   */
  take(key: string, limit: BucketLimit): Promise<number>;
  /** Empties bucket `key` and starts refilling it only after `ms` (a 429's `Retry-After`). */
  pause(key: string, limit: BucketLimit, ms: number): Promise<void>;
  /**
   * Optional, and what the client uses when present: takes up to `max` slots at once (as many as
   * leave `limit.reserve` in the bucket), for an instance to spend locally without a round trip
   * each. Resolves `{ taken: n, waitMs: 0 }` with n >= 1, or `{ taken: 0, waitMs }` when not even
   * one slot is free. A store without it is asked once per attempt with `take`.
   */
  lease?(key: string, limit: BucketLimit, max: number): Promise<RateLimitLease>;
}

/**
 * What {@link RateLimitStore.lease} resolves to.
 *
 * @example
 * const { taken, waitMs }: RateLimitLease = await store.lease!(key, limit, 8);
 */
export interface RateLimitLease {
  /** Slots taken from the shared bucket (0 when none was free). */
  taken: number;
  /** When none was taken: the milliseconds to wait before asking again; else 0. */
  waitMs: number;
}

/**
 * A {@link RateLimitStore} in this process's memory: clients given the same store share one bucket
 * per machine client. Other processes need a shared store such as Redis.
 *
 * @example
 * const store = new MemoryRateLimitStore();
 * const a = new PaymentsClient({ rateLimit: { tier: 'low', store } });
 * const b = new PaymentsClient({ rateLimit: { tier: 'low', store } }); // a and b share 10 at once, 5/s
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #buckets = new Map<string, BucketState>();

  async take(key: string, limit: BucketLimit): Promise<number> {
    const { state, waitMs } = takeSlot(this.#buckets.get(key), limit, Date.now());
    this.#buckets.set(key, state);
    return waitMs;
  }

  async lease(key: string, limit: BucketLimit, max: number): Promise<RateLimitLease> {
    const { state, taken, waitMs } = takeSlots(this.#buckets.get(key), limit, Date.now(), max, true);
    this.#buckets.set(key, state);
    return { taken, waitMs };
  }

  async pause(key: string, limit: BucketLimit, ms: number): Promise<void> {
    this.#buckets.set(key, pauseBucket(this.#buckets.get(key), limit, Date.now(), ms));
  }
}
