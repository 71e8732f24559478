// The agent ledger in Redis (./ledger.ts), for servers sharing `--intent-store redis://...`: each
// reservation a JSON value in one hash, its time in a sorted set (the window's range scans and
// pruning), and every change one Lua script, so that the check of the budget and the duplicate
// guard and the reservation are one atomic step however many servers race. The keys share one hash
// tag, so the scripts also run on a Redis Cluster's node of that slot. The reserve and observe
// scripts are the rules of ledger.ts's `decide` and `observeIn`, written again in Lua: the tests run
// both on the same cases.
import {
  type AgentLedger,
  type Entry,
  type EntryPatch,
  GIVES_BACK,
  type LedgerKind,
  pendingIn,
  REFUND_GIVES_BACK,
  type ReserveAnswer,
  type ReserveRequest,
  type Sighting,
} from './ledger.js';

/** The node-redis client stores.ts opened (`sendCommand` of one command as strings). */
export interface RedisSender {
  sendCommand(args: string[]): Promise<unknown>;
}

const PREFIX = '{partner-payments:agent}';
const HASH = `${PREFIX}:entries`;
const TIMES = `${PREFIX}:at`;

const PRUNE = `
local H, Z = KEYS[1], KEYS[2]
local function prune(before)
  local old = redis.call('ZRANGEBYSCORE', Z, '-inf', '(' .. before)
  for _, m in ipairs(old) do redis.call('HDEL', H, m) end
  if #old > 0 then redis.call('ZREMRANGEBYSCORE', Z, '-inf', '(' .. before) end
end
local function entries(since, exclusive)
  local out = {}
  local from = exclusive and ('(' .. since) or tostring(since)
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', Z, from, '+inf')) do
    local raw = redis.call('HGET', H, m)
    if raw then table.insert(out, cjson.decode(raw)) end
  end
  return out
end
`;

/** decide() of ledger.ts. ARGV: kind, key, amount, fp (JSON), now, limit (-1: none), window, dup window, allowed key, retain. */
const RESERVE = `${PRUNE}
local kind, key = ARGV[1], ARGV[2]
local amount = tonumber(ARGV[3])
local fp = cjson.decode(ARGV[4])
local now = tonumber(ARGV[5])
local limit, windowMs, dupMs = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local allow = ARGV[9]
prune(now - tonumber(ARGV[10]))
local id = kind .. ':' .. key
local ownRaw = redis.call('HGET', H, id)
if ownRaw then
  local own = cjson.decode(ownRaw)
  if (not own.released) or own.payment or own.refund then
    local same = own.amount == amount and #own.fp == #fp
    if same then for i = 1, #fp do if own.fp[i] ~= fp[i] then same = false end end end
    if same then return cjson.encode({ok = true, existing = true, entry = own}) end
    return cjson.encode({ok = false, reason = 'conflict', entry = own})
  end
end
if dupMs > 0 and #fp > 0 then
  local best = nil
  for _, e in ipairs(entries(now - dupMs, false)) do
    if e.kind == kind and not e.released and e.key ~= key and e.key ~= allow then
      local hit = false
      for _, f in ipairs(e.fp) do for _, g in ipairs(fp) do if f == g then hit = true end end end
      if e.order then for _, g in ipairs(fp) do if g == 'order:' .. e.order then hit = true end end end
      if hit and (best == nil or e.at > best.at) then best = e end
    end
  end
  if best then return cjson.encode({ok = false, reason = 'duplicate', entry = best}) end
end
if limit >= 0 then
  local spent = 0
  for _, e in ipairs(entries(now - windowMs, true)) do
    if e.kind == kind and not e.released then spent = spent + e.amount end
  end
  if spent + amount > limit then
    return cjson.encode({ok = false, reason = 'budget', left = math.max(0, limit - spent), spent = spent})
  end
end
local entry = {kind = kind, key = key, amount = amount, at = now, fp = fp, released = false}
redis.call('HSET', H, id, cjson.encode(entry))
redis.call('ZADD', Z, now, id)
return cjson.encode({ok = true, existing = false, entry = entry})
`;

/** patchEntry() of ledger.ts. ARGV: id, patch (JSON). */
const UPDATE = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local e = cjson.decode(raw)
for k, v in pairs(cjson.decode(ARGV[2])) do e[k] = v end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(e))
return 1
`;

/**
 * observeIn() of ledger.ts. ARGV: kind, by (payment, refund or key), id, status, the statuses that
 * give back (JSON), the ids of a landed verdict (JSON). Returns the entry given back, or ''.
 */
const OBSERVE = `${PRUNE}
local kind, by, id, status = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local back = {}
for _, s in ipairs(cjson.decode(ARGV[5])) do back[s] = true end
local e = nil
if by == 'key' then
  local raw = redis.call('HGET', H, kind .. ':' .. id)
  if raw then e = cjson.decode(raw) end
else
  for _, x in ipairs(entries('-inf', false)) do
    if e == nil and x.kind == kind and x[by] == id then e = x end
  end
end
if e == nil then return '' end
local given = false
if by == 'key' then
  if e.payment or e.refund then return '' end
  if status == 'landed' then
    local ids = cjson.decode(ARGV[6])
    if not (ids.payment or ids.refund) then return '' end
    for k, v in pairs(ids) do e[k] = v end
    e.status = nil
    e.released = false
  elseif status == 'not_landed' and not e.released then
    e.status = status
    e.released = true
    given = true
  else
    return ''
  end
else
  if e.status == status then return '' end
  e.status = status
  if back[status] and not e.released then
    e.released = true
    given = true
  end
end
redis.call('HSET', H, e.kind .. ':' .. e.key, cjson.encode(e))
if given then return cjson.encode(e) end
return ''
`;

/** An entry as cjson gave it back: an empty array comes back as an object. */
function entryOf(raw: Record<string, unknown>): Entry {
  return { ...(raw as unknown as Entry), fp: Array.isArray(raw.fp) ? (raw.fp as string[]) : [] };
}

/** The ledger on a connected node-redis client; `where` names the server for the start line. */
export function redisLedger(client: RedisSender, where: string): AgentLedger {
  const run = (script: string, args: (string | number)[]) =>
    client.sendCommand(['EVAL', script, '2', HASH, TIMES, ...args.map(String)]);
  return {
    where: `Redis at ${where}`,
    async reserve(r: ReserveRequest): Promise<ReserveAnswer> {
      const reply = await run(RESERVE, [
        r.kind,
        r.key,
        r.amount,
        JSON.stringify(r.fp),
        r.now,
        r.budget ? r.budget.limit : -1,
        r.budget ? r.budget.windowMs : 0,
        r.duplicateWindowMs,
        r.allowDuplicateOf ?? '',
        r.retainMs,
      ]);
      const answer = JSON.parse(String(reply)) as Record<string, unknown>;
      if (answer.entry) answer.entry = entryOf(answer.entry as Record<string, unknown>);
      return answer as unknown as ReserveAnswer;
    },
    async update(kind: LedgerKind, key: string, patch: EntryPatch) {
      await client.sendCommand(['EVAL', UPDATE, '1', HASH, `${kind}:${key}`, JSON.stringify(patch)]);
    },
    async observe(seen: Sighting) {
      const ids = { order: seen.order, payment: seen.payment, refund: seen.refund };
      const reply = await run(OBSERVE, [
        seen.kind,
        seen.by,
        seen.id,
        seen.status,
        JSON.stringify(seen.kind === 'charge' ? GIVES_BACK : REFUND_GIVES_BACK),
        JSON.stringify(ids),
      ]);
      return reply ? entryOf(JSON.parse(String(reply))) : undefined;
    },
    async pending(since: number) {
      const ids = (await client.sendCommand(['ZRANGEBYSCORE', TIMES, String(since), '+inf'])) as string[];
      if (ids.length === 0) return [];
      const raws = (await client.sendCommand(['HMGET', HASH, ...ids])) as (string | null)[];
      const entries = raws
        .filter((r): r is string => typeof r === 'string')
        .map((r) => entryOf(JSON.parse(r)));
      return pendingIn(entries, since);
    },
    close: async () => undefined,
  };
}
