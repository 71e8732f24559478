// The mock's per-client token buckets (spec section 8): the limits of each rate tier, and the pure
// `takeToken()`.
import type { RateTier } from '../state.js';

/** Burst (bucket size) and sustained rate (refill per second) of each tier, spec section 8. */
export const TIER_LIMITS: Record<RateTier, { burst: number; perSecond: number }> = {
  low: { burst: 10, perSecond: 5 },
  standard: { burst: 50, perSecond: 20 },
  high: { burst: 200, perSecond: 100 },
  // "custom" in the spec: the mock gives enterprise clients a generous fixed limit.
  enterprise: { burst: 1000, perSecond: 500 },
};

/** A token bucket: how many requests are left and when it was last refilled (mock-clock ms). */
export interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** The outcome of one request against a bucket. */
export interface TakeResult {
  bucket: Bucket;
  allowed: boolean;
  /** Whole seconds until one request is allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Takes one request from a token bucket that refills at `perSecond` up to `burst`. Pure: the caller
 * keeps the returned bucket.
 */
export function takeToken(
  bucket: Bucket | undefined,
  limit: { burst: number; perSecond: number },
  nowMs: number,
): TakeResult {
  const current = bucket ?? { tokens: limit.burst, updatedMs: nowMs };
  const elapsedSeconds = Math.max(0, nowMs - current.updatedMs) / 1000;
  const tokens = Math.min(limit.burst, current.tokens + elapsedSeconds * limit.perSecond);
  if (tokens >= 1) {
    return { bucket: { tokens: tokens - 1, updatedMs: nowMs }, allowed: true, retryAfterSeconds: 0 };
  }
  const retryAfterSeconds = Math.max(1, Math.ceil((1 - tokens) / limit.perSecond));
  return { bucket: { tokens, updatedMs: nowMs }, allowed: false, retryAfterSeconds };
}
