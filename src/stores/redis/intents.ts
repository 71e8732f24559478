// The intent store on Redis (`redisStores(...).intentStore`): one hash per idempotency key in its
// order's bucket (one hash slot: the key layout is in intent-scripts.ts and docs/fleets.md), leases
// and result uniqueness kept by scripts on Redis's own clock, a pointer per key to its order, refunds
// seen in webhook events. With `durability`, what precedes a send is acknowledged by replicas first.
import { StoreDurabilityError } from '../../core/errors/local-errors.js';
import type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  MadeResource,
  RefundSighting,
} from '../../core/stores/intent-store.js';
import { madeOf as madeResourceOf } from '../../core/stores/intent-store.js';
import { type RedisLink, type ScriptRunner, scriptRunner } from './client.js';
import {
  BEGIN,
  BUCKETS,
  bucketKeys,
  madeOf,
  POINT,
  PUT,
  pointerKey,
  RENEW,
  recordIn,
  refundsKey,
  UNDO,
  unfinishedOf,
} from './intent-scripts.js';

type PutResult = 'ok' | 'lost' | 'taken';

/** How long Redis keeps an intent and what points at it: 30 days after its last write. */
const TTL_MS = 30 * 24 * 3_600_000;

/**
 * `redisStores(client, { durability })`: each intent write that precedes a payment's or refund's
 * send waits for `replicas` replicas (`WAIT replicas timeoutMs`) on the node that holds it.
 *
 * @example
 * const durability: RedisDurability = { replicas: 1, timeoutMs: 500 };
 * const { intentStore } = redisStores(cluster, { durability });
 */
export interface RedisDurability {
  /** How many replicas must acknowledge the intent before the request is sent. */
  replicas: number;
  /** How long to wait for them, in milliseconds (at least 1). */
  timeoutMs: number;
}

/** The intent store over a Redis link (see client.ts). */
export function redisIntentStore(link: RedisLink, durability?: RedisDurability): IntentStore {
  const point = scriptRunner(link, POINT);
  const begin = scriptRunner(link, BEGIN);
  const put = scriptRunner(link, PUT);
  const undo = scriptRunner(link, UNDO);
  const renew = scriptRunner(link, RENEW);
  const wait = durability ? [['WAIT', durability.replicas, durability.timeoutMs]] : undefined;
  /** The script's reply and how many replicas acknowledged it (all, when no durability is asked). */
  const written = (
    script: ScriptRunner,
    keys: string[],
    args: (string | number)[],
  ): Promise<[unknown, number]> =>
    wait
      ? script
          .followedBy(keys, args, wait)
          .then(([reply, acks]) => [reply, acks instanceof Error ? 0 : Number(acks)])
      : script(keys, args).then((reply) => [reply, Number.POSITIVE_INFINITY]);
  const short = (key: string, acknowledged: number) =>
    new StoreDurabilityError({
      idempotencyKey: key,
      replicas: durability?.replicas ?? 0,
      acknowledged,
      timeoutMs: durability?.timeoutMs ?? 0,
    });
  const parse = (raw: unknown) => JSON.parse(String(raw)) as IntentRecord;
  /** Undoes a begin whose caller will send nothing: drops the record it made, or frees its lease. */
  const undone = async (keys: string[], owner: string, key: string, reply: unknown) => {
    const [status, , created] = reply as [string, string, string?];
    if (status !== 'acquired') return;
    await undo(keys, [owner, key, created ? 'drop' : 'release']).catch(() => undefined);
  };
  const read = async (key: string) => {
    const first = await link.send(['GET', pointerKey(key)]);
    if (typeof first !== 'string') return undefined;
    const raw = await link.send(['HGET', bucketKeys(parse(first).orderId).record(key), 'rec']);
    return typeof raw === 'string' ? parse(raw) : undefined;
  };

  return {
    durable: true,
    async begin(draft, owner, leaseMs): Promise<IntentBegin> {
      const k = bucketKeys(draft.orderId);
      const keys = [k.record(draft.key), k.keys, k.unfinished];
      const json = JSON.stringify(draft);
      const args = [json, draft.fingerprint, owner, Math.ceil(leaseMs), draft.key, TTL_MS];
      const conflict = async (first: string): Promise<IntentBegin> => ({
        status: 'conflict',
        record: (await read(draft.key)) ?? parse(first),
      });
      let pointer: unknown = 'same';
      let pointerAcks = Number.POSITIVE_INFINITY;
      let reply: unknown;
      let recordAcks: number;
      if (!link.cluster) {
        // One server: the pointer is checked in the same script.
        [reply, recordAcks] = await written(begin, [...keys, pointerKey(draft.key)], args);
      } else {
        // The pointer (the key's slot) and the record (its order's bucket) in one round trip: a record
        // made on another order than the pointer's is undone before anyone sends under it.
        const [pointed, begun] = await Promise.allSettled([
          written(point, [pointerKey(draft.key)], [draft.fingerprint, json, TTL_MS]),
          written(begin, keys, args),
        ]);
        if (begun.status === 'rejected') throw begun.reason;
        [reply, recordAcks] = begun.value;
        if (pointed.status === 'rejected') {
          await undone(keys, owner, draft.key, reply);
          throw pointed.reason;
        }
        [pointer, pointerAcks] = pointed.value;
      }
      const [status, value] = reply as [string, string, string?];
      if (status === 'other') return conflict(value);
      if (pointer !== 'new' && pointer !== 'same') {
        // The key was first used with other params (another order): a conflict.
        await undone(keys, owner, draft.key, reply);
        return conflict(String(pointer));
      }
      if (status === 'busy') return { status, until: Date.now() + Number(value) };
      const acknowledged = Math.min(pointerAcks, recordAcks);
      if (status === 'acquired' && durability && acknowledged < durability.replicas) {
        await undone(keys, owner, draft.key, reply);
        throw short(draft.key, acknowledged);
      }
      // A record this call created is its draft: no need to parse it back.
      const record = (reply as unknown[])[2] === 'new' ? draft : parse(value);
      return { status: status as 'acquired' | 'done' | 'conflict', record };
    },
    async put(record, owner, release) {
      const k = bucketKeys(record.orderId);
      const keys = [k.record(record.key), k.ids, k.unfinished];
      const args = [
        owner,
        JSON.stringify(record),
        record.state,
        record.resultId ?? '',
        release ? '1' : '0',
        record.key,
        TTL_MS,
      ];
      if (release) {
        // The key's last write: its pointer lives as long as its record (on one server, in the script).
        if (!link.cluster) return String(await put([...keys, pointerKey(record.key)], args)) as PutResult;
        const [reply] = await Promise.all([
          put(keys, args),
          link.send(['PEXPIRE', pointerKey(record.key), TTL_MS]).catch(() => undefined),
        ]);
        return String(reply) as PutResult;
      }
      // A write before a send (the next attempt's count and time): durable when asked.
      const [reply, acknowledged] = await written(put, keys, args);
      if (reply === 'ok' && durability && acknowledged < durability.replicas) {
        await undo(keys, [owner, record.key, 'release']).catch(() => undefined);
        throw short(record.key, acknowledged);
      }
      return String(reply) as PutResult;
    },
    async renew(intent, owner, leaseMs) {
      const reply = await renew([bucketKeys(intent.orderId).record(intent.key)], [owner, Math.ceil(leaseMs)]);
      return Number(reply) === 1;
    },
    get: read,
    async forOrder(orderId) {
      const k = bucketKeys(orderId);
      const keys = (await link.send(['SMEMBERS', k.keys])) as string[];
      const raws = await Promise.all(keys.map((key) => link.send(['HGET', k.record(key), 'rec'])));
      return raws.flatMap((raw) => (typeof raw === 'string' ? [parse(raw)] : []));
    },
    async unfinished(olderThanMs) {
      const now = Date.now();
      const cut = now - olderThanMs;
      // Every bucket's index (on a cluster, each on the master of its slot), read at once.
      const perBucket = await Promise.all(
        Array.from({ length: BUCKETS }, async (_, b) => {
          const keys = (await link.send(['ZRANGEBYSCORE', unfinishedOf(b), '-inf', cut])) as string[];
          return Promise.all(
            keys.map(async (key) => {
              const [rec, until] = (await link.send(['HMGET', recordIn(b, key), 'rec', 'lu'])) as [
                string | null,
                string | null,
              ];
              if (rec === null) {
                await link.send(['ZREM', unfinishedOf(b), key]); // expired
                return undefined;
              }
              const record = parse(rec);
              const free = Number(until ?? 0) <= now;
              return (record.state === 'open' || record.state === 'unknown') && free ? record : undefined;
            }),
          );
        }),
      );
      return perBucket.flat().filter((r): r is IntentRecord => r !== undefined);
    },
    async noteRefund(sighting) {
      const key = refundsKey(sighting.paymentId);
      await link.send(['HSET', key, sighting.refundId, JSON.stringify(sighting)]);
      await link.send(['PEXPIRE', key, TTL_MS]);
    },
    async refundsOf(paymentId) {
      const values = (await link.send(['HVALS', refundsKey(paymentId)])) as string[];
      return values.map((v) => JSON.parse(v) as RefundSighting);
    },
    async noteOrder(order) {
      const made = bucketKeys(order.orderId).made;
      await link.send(['ZADD', made, 'NX', order.createdAt, `order:${order.orderId}`]);
      await link.send(['PEXPIRE', made, TTL_MS]);
    },
    async made({ from, to }) {
      const old = Date.now() - TTL_MS;
      // Every bucket's index (on a cluster, each on the master of its slot), read at once.
      const perBucket = await Promise.all(
        Array.from({ length: BUCKETS }, async (_, b) => {
          const index = madeOf(b);
          const members = (await link.send(['ZRANGEBYSCORE', index, from, to, 'WITHSCORES'])) as string[];
          if (members.length > 0) await link.send(['ZREMRANGEBYSCORE', index, '-inf', old]);
          const found: MadeResource[] = [];
          await Promise.all(
            members.map(async (member, i) => {
              if (i % 2 === 1) return;
              const createdAt = Number(members[i + 1]);
              if (member.startsWith('order:')) {
                found.push({ kind: 'order', orderId: member.slice(6), createdAt });
                return;
              }
              const raw = await link.send(['HGET', recordIn(b, member.slice(4)), 'rec']);
              const m = typeof raw === 'string' ? madeResourceOf(parse(raw)) : undefined;
              if (m) found.push(m);
            }),
          );
          return found;
        }),
      );
      return perBucket.flat();
    },
  };
}
