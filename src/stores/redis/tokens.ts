// The token store on Redis (`redisStores(...).tokenStore`): one key per machine client's token, a
// script that replaces it only over the token the caller saw, and a lock with an owner.
import type { StoredToken, TokenStore } from '../../core/stores/token-store.js';
import { evalScript, type RedisLink } from './client.js';
import { REPLACE_TOKEN, UNLOCK } from './scripts.js';

/** The token store over a Redis link (see client.ts; on a cluster each command goes to the node of its one key). */
export function redisTokenStore({ send }: RedisLink): TokenStore {
  return {
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
      return Number(await evalScript(send, REPLACE_TOKEN, key, json, ttl, replaces ?? '')) === 1;
    },
    async lock(key, owner, ttlMs) {
      return (await send(['SET', key, owner, 'NX', 'PX', Math.ceil(ttlMs)])) === 'OK';
    },
    async unlock(key, owner) {
      await evalScript(send, UNLOCK, key, owner);
    },
  };
}
