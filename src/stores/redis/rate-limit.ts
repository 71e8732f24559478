// The rate-limit store on Redis (`redisStores(...).rateLimitStore`): one bucket per machine client,
// kept by one atomic script (the arithmetic of core/stores/token-bucket.ts on Redis's clock).
import type { RateLimitStore } from '../../core/stores/rate-limit-store.js';
import { type BucketLimit, leaseWindowMs } from '../../core/stores/token-bucket.js';
import { evalScript, type RedisLink } from './client.js';
import { BUCKET } from './scripts.js';

/** The rate-limit store over a Redis link (see client.ts; on a cluster each command goes to the node of its one key). */
export function redisRateLimitStore({ send }: RedisLink): RateLimitStore {
  const bucket = (key: string, limit: BucketLimit, mode: string, ms: number, max = 1) => {
    const args = [limit.perSecond, limit.burst, limit.reserve, mode, ms, max, leaseWindowMs(limit)];
    return evalScript(send, BUCKET, key, ...args);
  };
  return {
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
}
