/**
 * The token bucket every rate-limit store keeps: its limit, its state and the pure arithmetic of a
 * take, a lease and a pause. The memory store and the limiter's own local bucket run it; the Redis
 * store's script is the same arithmetic on the server's clock.
 */

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
