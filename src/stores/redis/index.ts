// `redisStores()`: the fleet token store, rate-limit store, webhook de-duplication store and intent
// store on the partner's own Redis client or cluster client (node-redis or ioredis, duck-typed: see
// client.ts), one file per store.
import { ConfigurationError } from '../../core/errors/api-errors.js';
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import type { IntentStore } from '../../core/stores/intent-store.js';
import type { RateLimitStore } from '../../core/stores/rate-limit-store.js';
import type { TokenStore } from '../../core/stores/token-store.js';
import { linkOf, type RedisClientLike } from './client.js';
import { redisDedupeStore } from './dedupe.js';
import { type RedisDurability, redisIntentStore } from './intents.js';
import { redisRateLimitStore } from './rate-limit.js';
import { redisTokenStore } from './tokens.js';

export type { RedisClientLike } from './client.js';
export type { RedisDurability } from './intents.js';

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
   * whole fleet and across restarts (docs/idempotency.md). Leases run on Redis's clock. On a single
   * Redis or a Redis Cluster (each script's keys share one hash slot: docs/fleets.md). No secret is
   * stored.
   */
  intentStore: IntentStore;
}

/**
 * Options of {@link redisStores}.
 *
 * @example
 * const { intentStore } = redisStores(cluster, { durability: { replicas: 1, timeoutMs: 500 } });
 */
export interface RedisStoresOptions {
  /**
   * Each payment's or refund's intent is acknowledged by this many replicas (`WAIT` on the node that
   * holds it) before the request is sent; fewer in time reject the call with `StoreDurabilityError`
   * and nothing is sent. Without it, an asynchronous failover can lose an intent the master
   * acknowledged (docs/fleets.md says what each set-up guarantees). @default undefined
   */
  durability?: RedisDurability;
}

function durabilityOption(value: unknown): RedisDurability | undefined {
  if (value === undefined) return undefined;
  const d = value as Partial<RedisDurability> | null;
  const whole = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1;
  if (typeof d !== 'object' || d === null || !whole(d.replicas) || !whole(d.timeoutMs)) {
    throw new ConfigurationError(
      'durability',
      'must be { replicas, timeoutMs }: whole numbers of at least 1 (a WAIT of 0 ms would wait forever).',
    );
  }
  return { replicas: d.replicas as number, timeoutMs: d.timeoutMs as number };
}

/**
 * Fleet stores on Redis (6 or later) for node-redis 4+ or ioredis 5+ clients, a node-redis 5 cluster
 * (`createCluster`) or an ioredis `Cluster`, duck-typed: the package adds no dependency. Keys start
 * with `partner-payments:`; on a cluster, each script's keys share one hash slot.
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
export function redisStores(client: RedisClientLike, options: RedisStoresOptions = {}): RedisStores {
  const durability = durabilityOption(options.durability);
  const link = linkOf(client);
  return {
    tokenStore: redisTokenStore(link),
    rateLimitStore: redisRateLimitStore(link),
    dedupeStore: redisDedupeStore(link),
    intentStore: redisIntentStore(link, durability),
  };
}
