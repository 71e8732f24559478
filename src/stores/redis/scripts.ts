/**
 * The Lua scripts of the Redis stores. Each runs atomically in Redis, so a fleet's instances never
 * interleave inside one check-and-write.
 */

/** Stores the token (ARGV[1], JSON) for ARGV[2] ms unless a token other than ARGV[3] is stored. */
export const REPLACE_TOKEN = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and type(stored) == 'table' and stored.v ~= ARGV[3] then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Deletes the lock KEYS[1] if ARGV[1] still holds it. */
export const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The token bucket (the same arithmetic as takeSlots/pauseBucket in src/core/stores/token-bucket.ts) on the
 * Redis server's clock. ARGV: perSecond, burst, reserve, 'take', 'lease' or 'pause', pause ms, most
 * slots to lease, lease window ms. 'take' returns the wait in ms (0: a slot was taken); 'lease'
 * returns {slots taken, wait in ms}. Slots leased in the current and the previous lease window are
 * held back from the refill (lw: the window, lc / lp: leased in it / in the one before).
 */
export const BUCKET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1]) / 1000
local burst = tonumber(ARGV[2])
local reserve = tonumber(ARGV[3])
local need = 1 + reserve
local span = tonumber(ARGV[7])
local w = math.floor(now / span)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated', 'lw', 'lc', 'lp')
local tokens = tonumber(state[1]) or burst
local updated = tonumber(state[2]) or now
local lw = tonumber(state[3]) or w
local lc = tonumber(state[4]) or 0
local lp = tonumber(state[5]) or 0
if w == lw + 1 then
  lp = lc
  lc = 0
elseif w > lw + 1 then
  lp = 0
  lc = 0
end
lw = math.max(w, lw)
if now > updated then
  local cap = math.max(0, burst - lc - lp)
  if tokens < cap then tokens = math.min(cap, tokens + (now - updated) * rate) end
  updated = now
end
local wait = 0
local taken = 0
if ARGV[4] == 'pause' then
  tokens = math.min(tokens, 0)
  updated = math.max(updated, now + tonumber(ARGV[5]))
elseif now >= updated and tokens >= need then
  taken = 1
  if ARGV[4] == 'lease' then
    taken = math.max(1, math.min(math.floor(tonumber(ARGV[6])), math.floor(tokens - reserve)))
    lc = lc + taken
  end
  tokens = tokens - taken
else
  wait = math.max(1, math.ceil((updated - now) + (need - tokens) / rate))
  if burst - lc - lp < need then wait = math.max(wait, span - (now % span)) end
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(updated), 'lw', tostring(lw), 'lc', tostring(lc), 'lp', tostring(lp))
redis.call('PEXPIRE', KEYS[1], math.ceil(updated - now + burst / rate) + 2 * span + 1000)
if ARGV[4] == 'lease' then return {taken, wait} end
return wait`;
