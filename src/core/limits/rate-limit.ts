/**
 * The client-side rate limit: the tiers of the spec (section 8) as token buckets (api.md section 9:
 * capacity = burst, refilled at the sustained rate), the pure bucket arithmetic, and the contract of
 * a store that shares one bucket among a fleet.
 */
import { keyDigest } from '../../internal/key-hash.js';
import { ConfigurationError } from '../errors/api-errors.js';

/**
 * A rate tier of the service (spec section 8).
 *
 * @example
 * const tier: RateTier = 'standard';
 */
export type RateTier = 'low' | 'standard' | 'high';

/**
 * A token bucket: `burst` calls at once, then `perSecond` calls per second.
 *
 * @example
 * const limit: RateLimit = { perSecond: 20, burst: 50 }; // the standard tier
 */
export interface RateLimit {
  /** Sustained rate: slots added per second. */
  perSecond: number;
  /** Bucket capacity: calls allowed at once after a quiet spell. */
  burst: number;
}

/**
 * Burst and sustained rate of each tier (spec section 8).
 *
 * @example
 * RATE_TIERS.low; // { perSecond: 5, burst: 10 }
 */
export const RATE_TIERS: Readonly<Record<RateTier, Readonly<RateLimit>>> = {
  low: { perSecond: 5, burst: 10 },
  standard: { perSecond: 20, burst: 50 },
  high: { perSecond: 100, burst: 200 },
};

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
 * The bucket a store keeps: the limit plus a reserve the SDK keeps back, so that requests that
 * arrive a few milliseconds late or out of order at the service never overdraw its own bucket.
 *
 * @example
 * const limit: BucketLimit = { perSecond: 5, burst: 10, reserve: 1.25 };
 */
export interface BucketLimit extends RateLimit {
  /** Slots that must remain after a take. */
  reserve: number;
}

/**
 * The `rateLimit` client option: a tier or your own figures, and optionally a store shared by the
 * fleet (without one, the limit is this client's alone).
 *
 * @example
 * const rateLimit: RateLimitOptions = { tier: 'low', store: redisStores(redis).rateLimitStore };
 * const custom: RateLimitOptions = { perSecond: 10, burst: 20 };
 */
export type RateLimitOptions = ({ tier: RateTier } | RateLimit) & {
  /** Where the bucket is kept. @default undefined (this client's memory) */
  store?: RateLimitStore | undefined;
};

/** The state of one bucket; `updatedMs` lies in the future while a 429's pause lasts. */
export interface BucketState {
  tokens: number;
  updatedMs: number;
  /** Lease window (`floor(ms / leaseWindowMs)`) of `leased`; absent before the first lease. */
  window?: number;
  /** Slots leased in that window and in the one before it, possibly not yet spent. */
  leased?: number;
  leasedBefore?: number;
}

/** Time the SDK keeps in hand against the service's bucket (network and scheduling jitter). */
const SAFETY_MS = 250;

/** The checked limit of a `rateLimit` option, with its reserve. */
export function resolveRateLimit(option: RateLimitOptions): BucketLimit {
  const limit = 'tier' in option ? RATE_TIERS[option.tier] : option;
  if (!limit || !(limit.perSecond > 0) || !Number.isFinite(limit.perSecond) || !(limit.burst >= 1)) {
    throw new ConfigurationError(
      'rateLimit',
      "must be { tier: 'low' | 'standard' | 'high' } or { perSecond > 0, burst >= 1 }.",
    );
  }
  const reserve = Math.min((SAFETY_MS / 1000) * limit.perSecond, limit.burst - 1);
  return { perSecond: limit.perSecond, burst: limit.burst, reserve };
}

/**
 * How long an instance may hold leased slots, in ms: short, so that the capacity they hold back (see
 * {@link refill}) leaves most of the burst to the others, even with a lease per window under load.
 */
export function leaseWindowMs(limit: BucketLimit): number {
  const spare = limit.burst - limit.reserve - 1;
  return Math.max(1, Math.min(500, Math.floor((spare * 1000) / (4 * limit.perSecond))));
}

/**
 * Refills `state` up to `nowMs` (a missing bucket is full). Slots leased in the current and the
 * previous lease window may still be spent later (a lease lapses within one window), so the bucket
 * refills only up to `burst` less those: the slots the fleet holds and the slots left in the bucket
 * never add up to more than the service's bucket holds.
 */
function refill(state: BucketState | undefined, limit: BucketLimit, nowMs: number): BucketState {
  if (!state) return { tokens: limit.burst, updatedMs: nowMs };
  const next: BucketState = { tokens: state.tokens, updatedMs: state.updatedMs };
  let held = 0;
  if (state.window !== undefined) {
    // Slide the lease windows: slots leased two windows ago have lapsed everywhere.
    const window = Math.max(state.window, Math.floor(nowMs / leaseWindowMs(limit)));
    const gap = window - state.window;
    next.window = window;
    next.leased = gap === 0 ? (state.leased ?? 0) : 0;
    next.leasedBefore = gap === 0 ? (state.leasedBefore ?? 0) : gap === 1 ? (state.leased ?? 0) : 0;
    held = next.leased + next.leasedBefore;
  }
  if (nowMs <= state.updatedMs) return next;
  const cap = Math.max(0, limit.burst - held);
  if (next.tokens < cap)
    next.tokens = Math.min(cap, next.tokens + ((nowMs - state.updatedMs) * limit.perSecond) / 1000);
  next.updatedMs = nowMs;
  return next;
}

/**
 * One take of up to `max` slots from a bucket (pure): as many as leave `limit.reserve` in it, with
 * the new state and wait 0, or none, the unchanged state and the wait in ms. The Redis script in
 * `partner-payments/stores` is the same arithmetic.
 */
export function takeSlots(
  state: BucketState | undefined,
  limit: BucketLimit,
  nowMs: number,
  max: number,
  lease = max > 1,
): { state: BucketState; taken: number; waitMs: number } {
  const next = refill(state, limit, nowMs);
  const need = 1 + limit.reserve;
  if (nowMs >= next.updatedMs && next.tokens >= need) {
    const taken = Math.max(1, Math.min(Math.floor(max), Math.floor(next.tokens - limit.reserve)));
    next.tokens -= taken;
    if (lease) {
      next.window ??= Math.floor(nowMs / leaseWindowMs(limit));
      next.leased = (next.leased ?? 0) + taken;
      next.leasedBefore ??= 0;
    }
    return { state: next, taken, waitMs: 0 };
  }
  const paused = Math.max(0, next.updatedMs - nowMs);
  let waitMs = Math.max(1, Math.ceil(paused + ((need - next.tokens) * 1000) / limit.perSecond));
  // Leases hold back the capacity needed: nothing frees up before the next lease window.
  if (limit.burst - (next.leased ?? 0) - (next.leasedBefore ?? 0) < need) {
    const windowMs = leaseWindowMs(limit);
    waitMs = Math.max(waitMs, windowMs - (nowMs % windowMs));
  }
  return { state: next, taken: 0, waitMs };
}

/** One take of one slot from a bucket (pure): the new state and 0, or the unchanged state and the wait in ms. */
export function takeSlot(
  state: BucketState | undefined,
  limit: BucketLimit,
  nowMs: number,
): { state: BucketState; waitMs: number } {
  const { state: next, waitMs } = takeSlots(state, limit, nowMs, 1, false);
  return { state: next, waitMs };
}

/** Empties a bucket until `nowMs + ms` (pure). */
export function pauseBucket(
  state: BucketState | undefined,
  limit: BucketLimit,
  nowMs: number,
  ms: number,
): BucketState {
  const next = refill(state, limit, nowMs);
  return { ...next, tokens: Math.min(next.tokens, 0), updatedMs: Math.max(next.updatedMs, nowMs + ms) };
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

/** The store key of a machine client's bucket (the service keeps one bucket per client). */
export function rateLimitKey(baseUrl: string, clientId: string | undefined): string {
  return `partner-payments:rate:${keyDigest([baseUrl, clientId ?? ''])}`;
}
