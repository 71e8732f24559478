// The intent store on Redis (`redisStores(...).intentStore`): one hash per idempotency key, leases
// and result uniqueness kept by two scripts on Redis's own clock, refunds seen in webhook events.
import type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  RefundSighting,
} from '../../core/stores/intent-store.js';
import { type Send, scriptRunner } from './client.js';

const PREFIX = 'partner-payments:intent';
/** How long Redis keeps an intent and what points at it: 30 days after its last write. */
const TTL_MS = 30 * 24 * 3_600_000;

// KEYS: record, order's keys, unfinished index. ARGV: draft, fingerprint, owner, leaseMs, key, ttl.
const BEGIN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'rec', ARGV[1], 'fp', ARGV[2], 'state', 'open', 'lo', ARGV[3], 'lu', now + tonumber(ARGV[4]))
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  redis.call('SADD', KEYS[2], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
  redis.call('ZADD', KEYS[3], now, ARGV[5])
  return {'acquired', ARGV[1]}
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

// KEYS: record, order's result ids, unfinished index. ARGV: owner, record, state, resultId,
// release, key, ttl.
const PUT = `
if redis.call('HGET', KEYS[1], 'lo') ~= ARGV[1] then return 'lost' end
if ARGV[4] ~= '' then
  local holder = redis.call('HGET', KEYS[2], ARGV[4])
  if holder and holder ~= ARGV[6] then return 'taken' end
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[6])
  redis.call('PEXPIRE', KEYS[2], ARGV[7])
end
redis.call('HSET', KEYS[1], 'rec', ARGV[2], 'state', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'lo', '', 'lu', 0) end
if ARGV[3] == 'open' or ARGV[3] == 'unknown' then
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[3], tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), ARGV[6])
else
  redis.call('ZREM', KEYS[3], ARGV[6])
end
return 'ok'
`;

const recordKey = (key: string) => `${PREFIX}:${key}`;
const orderKeys = (orderId: string) => `${PREFIX}-order:${orderId}`;
const orderIds = (orderId: string) => `${PREFIX}-ids:${orderId}`;
const UNFINISHED = `${PREFIX}-unfinished`;
const refundsKey = (paymentId: string) => `${PREFIX}-refunds:${paymentId}`;

/** The intent store over a Redis connection's `send` (see client.ts). */
export function redisIntentStore(send: Send): IntentStore {
  const begin = scriptRunner(send, BEGIN);
  const put = scriptRunner(send, PUT);
  const parse = (raw: unknown) => JSON.parse(String(raw)) as IntentRecord;
  const read = async (key: string) => {
    const raw = await send(['HGET', recordKey(key), 'rec']);
    return typeof raw === 'string' ? parse(raw) : undefined;
  };
  return {
    async begin(draft, owner, leaseMs): Promise<IntentBegin> {
      const keys = [recordKey(draft.key), orderKeys(draft.orderId), UNFINISHED];
      const args = [JSON.stringify(draft), draft.fingerprint, owner, Math.ceil(leaseMs), draft.key, TTL_MS];
      const [status, value] = (await begin(keys, args)) as [string, string];
      if (status === 'busy') return { status, until: Date.now() + Number(value) };
      return { status: status as 'acquired' | 'done' | 'conflict', record: parse(value) };
    },
    async put(record, owner, release) {
      const keys = [recordKey(record.key), orderIds(record.orderId), UNFINISHED];
      const args = [
        owner,
        JSON.stringify(record),
        record.state,
        record.resultId ?? '',
        release ? '1' : '0',
        record.key,
        TTL_MS,
      ];
      return String(await put(keys, args)) as 'ok' | 'lost' | 'taken';
    },
    get: read,
    async forOrder(orderId) {
      const keys = (await send(['SMEMBERS', orderKeys(orderId)])) as string[];
      const records = await Promise.all(keys.map(read));
      return records.filter((r): r is IntentRecord => r !== undefined);
    },
    async unfinished(olderThanMs) {
      const now = Date.now();
      const keys = (await send(['ZRANGEBYSCORE', UNFINISHED, '-inf', now - olderThanMs])) as string[];
      const out: IntentRecord[] = [];
      for (const key of keys) {
        const [rec, until] = (await send(['HMGET', recordKey(key), 'rec', 'lu'])) as [
          string | null,
          string | null,
        ];
        if (rec === null) {
          await send(['ZREM', UNFINISHED, key]); // expired
          continue;
        }
        const record = parse(rec);
        if ((record.state === 'open' || record.state === 'unknown') && Number(until ?? 0) <= now)
          out.push(record);
      }
      return out;
    },
    async noteRefund(sighting) {
      const key = refundsKey(sighting.paymentId);
      await send(['HSET', key, sighting.refundId, JSON.stringify(sighting)]);
      await send(['PEXPIRE', key, TTL_MS]);
    },
    async refundsOf(paymentId) {
      const values = (await send(['HVALS', refundsKey(paymentId)])) as string[];
      return values.map((v) => JSON.parse(v) as RefundSighting);
    },
  };
}
