// `redisStores()`: the fleet token store, rate-limit store and webhook de-duplication store on the
// partner's own Redis client (node-redis 4+ or ioredis 5+, duck-typed).
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import type { IntentStore } from '../../core/stores/intent-store.js';
import type { RateLimitStore } from '../../core/stores/rate-limit-store.js';
import { type BucketLimit, leaseWindowMs } from '../../core/stores/token-bucket.js';
import type { StoredToken, TokenStore } from '../../core/stores/token-store.js';
import { redisIntentStore } from './intents.js';
import { BUCKET, REPLACE_TOKEN, UNLOCK } from './scripts.js';

/**
 * A Redis client the stores accept: ioredis 5+ (`call(command, ...args)`) or node-redis 4+
 * (`sendCommand([command, ...args])`), connected. Attach an `error` listener to it, so that an
 * outage does not crash your process while the SDK works on without the store.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const redis: RedisClientLike = new Redis(process.env.REDIS_URL);
 */
export type RedisClientLike =
  | {
      /** ioredis: sends one command with its arguments. */
      call(command: string, ...args: (string | number)[]): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command as an array of strings. */
      sendCommand(args: string[]): Promise<unknown>;
    };

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

type Send = (args: (string | number)[]) => Promise<unknown>;

function sender(client: RedisClientLike): Send {
  const c = client as unknown as Record<string, unknown>;
  if (typeof c.call === 'function') {
    const call = c.call as (...args: (string | number)[]) => Promise<unknown>;
    return (args) => call.apply(client, args);
  }
  if (typeof c.sendCommand === 'function') {
    const send = c.sendCommand as (args: string[]) => Promise<unknown>;
    return (args) => send.call(client, args.map(String));
  }
  throw new TypeError(
    'redisStores() needs a connected node-redis 4+ client (sendCommand) or an ioredis 5+ client (call).',
  );
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
  const script = (source: string, key: string, ...args: (string | number)[]) =>
    send(['EVAL', source, 1, key, ...args]);
  const tokenStore: TokenStore = {
    async get(key) {
      const raw = await send(['GET', key]);
      if (typeof raw !== 'string') return undefined;
      const stored = JSON.parse(raw) as { v: string; e: number; r: number };
      return stored.e > Date.now()
        ? { value: stored.v, expiresAt: stored.e, refreshAt: stored.r }
        : undefined;
    },
    async replace(key, token: StoredToken, replaces) {
      const ttl = Math.max(1, Math.ceil(token.expiresAt - Date.now()));
      const json = JSON.stringify({ v: token.value, e: token.expiresAt, r: token.refreshAt });
      return Number(await script(REPLACE_TOKEN, key, json, ttl, replaces ?? '')) === 1;
    },
    async lock(key, owner, ttlMs) {
      return (await send(['SET', key, owner, 'NX', 'PX', Math.ceil(ttlMs)])) === 'OK';
    },
    async unlock(key, owner) {
      await script(UNLOCK, key, owner);
    },
  };
  const bucket = (key: string, limit: BucketLimit, mode: string, ms: number, max = 1) =>
    script(BUCKET, key, limit.perSecond, limit.burst, limit.reserve, mode, ms, max, leaseWindowMs(limit));
  const rateLimitStore: RateLimitStore = {
    async take(key, limit) {
      return Number(await bucket(key, limit, 'take', 0));
    },
    async lease(key, limit, max) {
      const reply = (await bucket(key, limit, 'lease', 0, Math.max(1, Math.floor(max)))) as unknown[];
      return { taken: Number(reply[0]), waitMs: Number(reply[1]) };
    },
    async pause(key, limit, ms) {
      await bucket(key, limit, 'pause', Math.ceil(ms));
    },
  };
  const dedupeStore: DedupeStore = {
    async add(id, ttlMs) {
      const key = `partner-payments:webhook-event:${id}`;
      return (await send(['SET', key, '1', 'NX', 'PX', Math.max(1, Math.ceil(ttlMs))])) === 'OK';
    },
    async delete(id) {
      await send(['DEL', `partner-payments:webhook-event:${id}`]);
    },
  };
  return { tokenStore, rateLimitStore, dedupeStore, intentStore: redisIntentStore(send) };
}
