// The webhook de-duplication store on Redis (`redisStores(...).dedupeStore`): `SET NX PX` per event id.
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import type { RedisLink } from './client.js';

const eventKey = (id: string) => `partner-payments:webhook-event:${id}`;

/** The de-duplication store over a Redis link (see client.ts; on a cluster each command goes to the node of its one key). */
export function redisDedupeStore({ send }: RedisLink): DedupeStore {
  return {
    durable: true,
    async add(id, ttlMs) {
      return (await send(['SET', eventKey(id), '1', 'NX', 'PX', Math.max(1, Math.ceil(ttlMs))])) === 'OK';
    },
    async delete(id) {
      await send(['DEL', eventKey(id)]);
    },
    async has(id) {
      return Number(await send(['EXISTS', eventKey(id)])) === 1;
    },
  };
}
