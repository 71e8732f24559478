/**
 * The Lua scripts of the Redis intent store (intents.ts) and its key layout. Each script runs
 * atomically; on a Redis Cluster every script's keys share one hash slot (docs/fleets.md, "Redis
 * Cluster"): the keys of a script are those of one bucket of orders.
 */

const PREFIX = 'partner-payments:intent';

/**
 * How many buckets an order may fall in. A bucket is one hash slot: the records of its orders, their
 * indexes and its list of unfinished intents. 1,024 slots spread over every master of any cluster
 * up to a few hundred masters, and `unfinished()` reads 1,024 small sorted sets.
 */
export const BUCKETS = 1024;

/** The bucket of an order: FNV-1a (32 bits) of its id, modulo {@link BUCKETS}. Stable across versions. */
export function bucketOf(orderId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < orderId.length; i++) {
    h ^= orderId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % BUCKETS;
}

/** The hash tag of a bucket: Redis Cluster places a key by what is between its first `{` and `}`. */
const tag = (bucket: number) => `{pp-intents-${bucket}}`;

/** The keys of an order's bucket. */
export function bucketKeys(orderId: string) {
  const t = `${PREFIX}:${tag(bucketOf(orderId))}`;
  return {
    record: (key: string) => `${t}:key:${key}`,
    /** The order's idempotency keys (a set). */
    keys: `${t}:order:${orderId}`,
    /** The order's result ids, each to the key it is the result of (a hash). */
    ids: `${t}:ids:${orderId}`,
    unfinished: `${t}:unfinished`,
    /** What the bucket's orders made (docs/webhooks.md): a sorted set by creation time (see {@link madeOf}). */
    made: `${t}:made`,
  };
}

/**
 * The made index of bucket `b`: members `key:<idempotency key>` (an intent, added by {@link BEGIN}
 * when it creates the record) and `order:<order id>` (an order noted under a key), scored by their
 * creation time (ms). Its name is the unfinished index's with `made` for `unfinished`: BEGIN derives
 * it so (same hash tag, same slot).
 */
export const madeOf = (bucket: number) => `${PREFIX}:${tag(bucket)}:made`;

/** The unfinished index of bucket `b` (for `unfinished()`, which reads every bucket). */
export const unfinishedOf = (bucket: number) => `${PREFIX}:${tag(bucket)}:unfinished`;
/** The record of `key` in bucket `b`. */
export const recordIn = (bucket: number, key: string) => `${PREFIX}:${tag(bucket)}:key:${key}`;

/**
 * A key's pointer: its first draft (a string: its fingerprint and order), set by its first use and
 * never changed, so that a key is found (and a key used on another order is a conflict) without
 * knowing its order. Its own slot: on a cluster it is set by {@link POINT} beside {@link BEGIN}; on
 * a single server, by BEGIN itself.
 */
export const pointerKey = (key: string) => `${PREFIX}-key:${key}`;
/** The refunds seen of a payment (one key, its own slot). */
export const refundsKey = (paymentId: string) => `${PREFIX}-refunds:${paymentId}`;

/**
 * KEYS: pointer. ARGV: fingerprint, draft, ttl. Sets the pointer (the key's first draft, a string)
 * unless it exists; returns 'new', 'same' (this fingerprint), or the first draft of the key when its
 * fingerprint differs.
 */
export const POINT = `
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[3]) then return 'new' end
local first = redis.call('GET', KEYS[1])
if cjson.decode(first).fingerprint == ARGV[1] then return 'same' end
return first
`;

/**
 * KEYS: record, order's keys, unfinished index, and on a single server the key's pointer. ARGV:
 * draft, fingerprint, owner, leaseMs, key, ttl. Returns {status, record} ('acquired', '', 'new' when
 * it created the record: the record is the draft), or {'other', first draft} when the pointer holds
 * another fingerprint (on a single server, where the pointer is checked here: see {@link POINT}).
 */
export const BEGIN = `
if #KEYS == 4 and not redis.call('SET', KEYS[4], ARGV[1], 'NX', 'PX', ARGV[6]) then
  local first = redis.call('GET', KEYS[4])
  if cjson.decode(first).fingerprint ~= ARGV[2] then return {'other', first} end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'rec', ARGV[1], 'fp', ARGV[2], 'state', 'open', 'lo', ARGV[3], 'lu', now + tonumber(ARGV[4]))
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('SADD', KEYS[2], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
  redis.call('ZADD', KEYS[3], now, ARGV[5])
  local made = string.sub(KEYS[3], 1, -11) .. 'made'
  redis.call('ZADD', made, now, 'key:' .. ARGV[5])
  redis.call('PEXPIRE', made, ARGV[6])
  return {'acquired', '', 'new'}
end
local h = redis.call('HMGET', KEYS[1], 'rec', 'fp', 'state', 'lo', 'lu')
if h[2] ~= ARGV[2] then return {'conflict', h[1]} end
if h[3] == 'landed' then return {'done', h[1]} end
if h[4] and h[4] ~= '' and h[4] ~= ARGV[3] and tonumber(h[5]) > now then
  return {'busy', tostring(tonumber(h[5]) - now)}
end
redis.call('HSET', KEYS[1], 'lo', ARGV[3], 'lu', now + tonumber(ARGV[4]))
return {'acquired', h[1]}
`;

/**
 * KEYS: record, order's result ids, unfinished index, and on a single server the key's pointer (kept
 * as long as the record when the lease is released). ARGV: owner, record, state, resultId, release,
 * key, ttl. Returns 'ok', 'lost' (another owner holds the lease) or 'taken' (the result is another
 * key's).
 */
export const PUT = `
if redis.call('HGET', KEYS[1], 'lo') ~= ARGV[1] then return 'lost' end
if ARGV[4] ~= '' then
  if redis.call('HSETNX', KEYS[2], ARGV[4], ARGV[6]) == 0 and redis.call('HGET', KEYS[2], ARGV[4]) ~= ARGV[6] then
    return 'taken'
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
end
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'state', ARGV[3], 'lo', '', 'lu', 0)
  if #KEYS == 4 then redis.call('PEXPIRE', KEYS[4], ARGV[7]) end
else
  redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'state', ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[7])
if ARGV[3] == 'open' or ARGV[3] == 'unknown' then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[3], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[6])
else
  redis.call('ZREM', KEYS[3], ARGV[6])
end
return 'ok'
`;

/**
 * KEYS: record. ARGV: owner, leaseMs. Extends the lease of its holder to leaseMs from now (Redis's
 * clock); 0 when `owner` holds it no longer.
 */
export const RENEW = `
if redis.call('HGET', KEYS[1], 'lo') ~= ARGV[1] then return 0 end
local t = redis.call('TIME')
redis.call('HSET', KEYS[1], 'lu', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2]))
return 1
`;

/**
 * KEYS: record, order's keys, unfinished index. ARGV: owner, key, 'drop' or 'release'. Undoes a
 * begin whose caller sends nothing: 'drop' deletes the record it created, 'release' frees the lease.
 */
export const UNDO = `
if redis.call('HGET', KEYS[1], 'lo') ~= ARGV[1] then return 0 end
if ARGV[3] == 'drop' then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[2])
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('HSET', KEYS[1], 'lo', '', 'lu', 0)
end
return 1
`;
