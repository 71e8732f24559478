/**
 * The client-side rate limit: the tiers of the spec (section 8) as token buckets (capacity =
 * burst, refilled at the sustained rate), the `rateLimit` option and its checked limit.
 * The bucket's arithmetic and the store contract are in core/stores.
 */
import { keyDigest } from '../../internal/key-hash.js';
import { ConfigurationError } from '../errors/api-errors.js';
import type { RateLimitStore } from '../stores/rate-limit-store.js';
import type { BucketLimit, RateLimit } from '../stores/token-bucket.js';

/**
 * A rate tier of the service (spec section 8).
 *
 * @example
 * const tier: RateTier = 'standard';
 */
export type RateTier = 'low' | 'standard' | 'high';

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

/** The store key of a machine client's bucket (the service keeps one bucket per client). */
export function rateLimitKey(baseUrl: string, clientId: string | undefined): string {
  return `partner-payments:rate:${keyDigest([baseUrl, clientId ?? ''])}`;
}
