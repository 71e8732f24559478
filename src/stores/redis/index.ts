// `redisStores()`: the fleet token store, rate-limit store, webhook de-duplication store and intent
// store on the partner's own Redis client (node-redis 4+ or ioredis 5+, duck-typed: see client.ts),
// one file per store.
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import type { IntentStore } from '../../core/stores/intent-store.js';
import type { RateLimitStore } from '../../core/stores/rate-limit-store.js';
import type { TokenStore } from '../../core/stores/token-store.js';
import { type RedisClientLike, sender } from './client.js';
import { redisDedupeStore } from './dedupe.js';
import { redisIntentStore } from './intents.js';
import { redisRateLimitStore } from './rate-limit.js';
import { redisTokenStore } from './tokens.js';

export type { RedisClientLike } from './client.js';

/**
 * What {@link redisStores} returns: one store per piece of fleet state.
 *
 * @example
 * const { tokenStore, rateLimitStore, dedupeStore }: RedisStores = redisStores(redis);
 */
export interface RedisStores {
  /** For the client's `tokenStore` option. Holds live access tokens: guard Redis like the secret. */
  tokenStore: TokenStore;
  /**
   * For `rateLimit: { tier, store }`: one bucket per machine client, kept by an atomic script. An
   * instance leases a few slots per script call and spends them locally.
   */
  rateLimitStore: RateLimitStore;
  /** For webhook de-duplication (`createDeduplicator({ store })`): `SET NX PX` per event id. */
  dedupeStore: DedupeStore;
  /**
   * For the client's `intentStore` option: payment and refund intents per idempotency key, for the
   * whole fleet and across restarts (docs/idempotency.md). Leases run on Redis's clock. Needs a
   * single Redis (not Cluster: its scripts touch an order's keys together). No secret is stored.
   */
  intentStore: IntentStore;
}

/**
 * Fleet stores on Redis (6 or later) for node-redis 4+ or ioredis 5+, duck-typed: the package adds no
 * dependency. Keys start with `partner-payments:`.
 *
 * @example
 * import { createClient } from 'redis';
 * import { PaymentsClient } from 'partner-payments';
 * import { redisStores } from 'partner-payments/stores';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', () => {}).connect();
 * const { tokenStore, rateLimitStore } = redisStores(redis);
 * const client = new PaymentsClient({ tokenStore, rateLimit: { tier: 'standard', store: rateLimitStore } });
 */
export function redisStores(client: RedisClientLike): RedisStores {
  const send = sender(client);
  return {
    tokenStore: redisTokenStore(send),
    rateLimitStore: redisRateLimitStore(send),
    dedupeStore: redisDedupeStore(send),
    intentStore: redisIntentStore(send),
  };
}
