// The fleet pieces in one process: the bucket arithmetic, a token shared through a store, the
// rate limiter's deadline and 429 feedback, and what happens when a store fails.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveRateLimit } from '../../src/core/limits/rate-limit.js';
import { type BucketLimit, pauseBucket, takeSlot } from '../../src/core/stores/token-bucket.js';
import { tokenStoreKey } from '../../src/core/stores/token-store.js';
import {
  APIConnectionTimeoutError,
  MemoryRateLimitStore,
  MemoryTokenStore,
  PaymentsClient,
  type PaymentsClientOptions,
  RateLimitError,
  type TokenStore,
} from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { caught } from '../helpers/caught.js';
import { countingFetch } from '../helpers/counting-fetch.js';

const ORDER = '3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f';
const LOW: BucketLimit = { perSecond: 5, burst: 10, reserve: 0 };

describe('takeSlot / pauseBucket (pure)', () => {
  it.each([
    ['a missing bucket is full', undefined, 0, 0, 9],
    ['a slot left', { tokens: 1, updatedMs: 0 }, 0, 0, 0],
    ['empty: wait for one slot at 5/s', { tokens: 0, updatedMs: 0 }, 0, 200, 0],
    ['half a slot: wait for the other half', { tokens: 0.5, updatedMs: 0 }, 0, 100, 0.5],
    ['refilled by elapsed time', { tokens: 0, updatedMs: 0 }, 400, 0, 1],
    ['refill capped at burst', { tokens: 0, updatedMs: 0 }, 60_000, 0, 9],
    ['paused until 1000: wait for the pause and a slot', { tokens: 0, updatedMs: 1000 }, 0, 1200, 0],
  ])('%s', (_name, state, now, waitMs, tokensAfter) => {
    const result = takeSlot(state, LOW, now);
    expect(result.waitMs).toBe(waitMs);
    expect(result.state.tokens).toBeCloseTo(tokensAfter);
  });

  it('keeps its reserve back, so a late request never overdraws the service bucket', () => {
    const limit = resolveRateLimit({ tier: 'low' });
    expect(limit.reserve).toBeCloseTo(1.25); // 250 ms of refill at 5/s
    let state: ReturnType<typeof takeSlot>['state'] | undefined;
    let granted = 0;
    for (let i = 0; i < 12; i++) {
      const r = takeSlot(state, limit, 0);
      state = r.state;
      if (r.waitMs === 0) granted++;
    }
    expect(granted).toBe(8);
  });

  it('pauses: empties the bucket and refills only after the pause', () => {
    const paused = pauseBucket(undefined, LOW, 0, 1000);
    expect(paused).toEqual({ tokens: 0, updatedMs: 1000 });
    expect(takeSlot(paused, LOW, 1000 + 200).waitMs).toBe(0);
  });

  it('refuses a limit that makes no sense', () => {
    expect(() => resolveRateLimit({ perSecond: 0, burst: 5 })).toThrow(/rateLimit/);
    expect(() => resolveRateLimit({ tier: 'gold' as 'low' })).toThrow(/rateLimit/);
  });
});

describe('tokenStoreKey', () => {
  it('normalises the scopes (prefix added, sorted) and never holds the secret', () => {
    const a = tokenStoreKey('https://auth.example.com', 'client-1', ['payments:read', 'svc/locations:read']);
    const b = tokenStoreKey('https://auth.example.com', 'client-1', [
      'svc/locations:read',
      'svc/payments:read',
    ]);
    expect(a).toBe(b);
    expect(tokenStoreKey('https://auth.example.com', 'client-2', ['payments:read'])).not.toBe(a);
    expect(a).toMatch(/^partner-payments:token:[\w-]{32}$/);
  });
});

/** Clients against one in-process mock, counting the token requests and API requests it receives. */
function setup(mockOptions: Parameters<typeof createMockService>[0] = {}) {
  const mock = createMockService(mockOptions);
  const counts = { token: 0, api: 0 };
  const lines: string[] = [];
  const client = (options: PaymentsClientOptions = {}) =>
    new PaymentsClient({
      ...mock.clientOptions(),
      maxRetries: 0,
      logger: {
        debug() {},
        info: (l) => lines.push(l),
        warn: (l) => lines.push(l),
        error: (l) => lines.push(l),
      },
      fetch: countingFetch(mock, counts),
      ...options,
    });
  const partnerId = mock.fixtures.partners[0]!.partnerId;
  const [locationId] = mock.seedLocations(partnerId, 1);
  return { mock, counts, lines, client, locationId: locationId! };
}

describe('tokenStore in one process', () => {
  it('two clients on one store make one token request; a token_expired seen by one replaces it for both', async () => {
    const { mock, counts, client, locationId } = setup({ rateLimits: false });
    const tokenStore = new MemoryTokenStore();
    const a = client({ tokenStore });
    const b = client({ tokenStore });
    const order = await a.orders.create({ location_id: locationId, total_cents: 500 });
    await Promise.all([b.orders.get(order.order_id), a.orders.get(order.order_id)]);
    expect(counts.token).toBe(1);
    mock.clock.advance(2 * 3600_000); // the shared token is now refused with token_expired
    await a.orders.get(order.order_id); // a re-mints and stores the new token
    await b.orders.get(order.order_id); // b is refused, finds a's new token in the store
    expect(counts.token).toBe(2);
  });

  it('never logs or shows the stored token', async () => {
    const { counts, lines, client, locationId } = setup({ rateLimits: false });
    const stored: string[] = [];
    const tokenStore = new MemoryTokenStore();
    const replace = tokenStore.replace.bind(tokenStore);
    tokenStore.replace = (key, token, replaces) => {
      stored.push(token.value);
      return replace(key, token, replaces);
    };
    const c = client({ tokenStore, logLevel: 'debug' });
    const events: unknown[] = [];
    c.on('token', (e) => events.push(e));
    await c.orders.create({ location_id: locationId, total_cents: 500 });
    expect(counts.token).toBe(1);
    expect(stored[0]).toMatch(/^eyJ/); // positive control: the store did receive the token
    const seen = [...lines, JSON.stringify(events), JSON.stringify(c), String(c)].join('\n');
    expect(seen).not.toContain(stored[0]);
    expect(seen).toContain('access token minted'); // the log was written
  });

  it('costs no store round trip per call while the local copy is fresh', async () => {
    const { client, locationId } = setup({ rateLimits: false });
    const tokenStore = new MemoryTokenStore();
    let reads = 0;
    const get = tokenStore.get.bind(tokenStore);
    tokenStore.get = (key) => {
      reads++;
      return get(key);
    };
    const c = client({ tokenStore });
    const order = await c.orders.create({ location_id: locationId, total_cents: 500 });
    const before = reads;
    expect(before).toBeGreaterThan(0); // the first call did look in the store
    await Promise.all(Array.from({ length: 20 }, () => c.orders.get(order.order_id)));
    expect(reads).toBe(before);
  });

  it("a waiter stops waiting for another instance's mint at its own deadline", async () => {
    const { counts, client } = setup({ rateLimits: false });
    const busy: TokenStore = {
      get: async () => undefined,
      replace: async () => false,
      lock: async () => false, // another instance holds the lock and never stores a token
      unlock: async () => {},
    };
    const started = Date.now();
    const error = await caught(client({ tokenStore: busy, deadlineMs: 200 }).orders.get(ORDER));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(counts.token).toBe(0);
  });

  it('compare-and-replace: a late instance does not overwrite a newer token', async () => {
    const store = new MemoryTokenStore();
    const t = (value: string) => ({ value, expiresAt: Date.now() + 60_000, refreshAt: Date.now() + 30_000 });
    expect(await store.replace('k', t('first'), undefined)).toBe(true);
    expect(await store.replace('k', t('second'), 'first')).toBe(true);
    expect(await store.replace('k', t('late'), 'first')).toBe(false);
    expect((await store.get('k'))?.value).toBe('second');
  });

  it('works on its own token when the store fails, and logs one warning for the outage', async () => {
    const { counts, lines, client, locationId } = setup({ rateLimits: false });
    const down = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    const broken: TokenStore = {
      get: () => Promise.reject(down),
      replace: () => Promise.reject(down),
      lock: () => Promise.reject(down),
      unlock: () => Promise.reject(down),
    };
    const c = client({ tokenStore: broken });
    const order = await c.orders.create({ location_id: locationId, total_cents: 500 });
    await Promise.all(Array.from({ length: 5 }, () => c.orders.get(order.order_id)));
    expect(counts.token).toBe(1);
    const warnings = lines.filter((l) => l.includes('token store failed'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ECONNREFUSED.*working on local state/);
  });
});

describe('rateLimit in one process', () => {
  // Fake time: "at once" means the clock never moved, whatever the machine's load; the mock answers
  // over an in-process fetch, so no socket waits on a timer.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());
  /** Settles `call` without moving the clock, or fails: a call that waits for a slot never settles. */
  async function atOnce(call: Promise<unknown>): Promise<unknown> {
    let outcome: { value: unknown } | undefined;
    void call.then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { value: error }),
    );
    for (let turn = 0; turn < 50 && !outcome; turn++) await new Promise((resolve) => setImmediate(resolve));
    if (!outcome) throw new Error('the call did not settle without the clock moving: it waited');
    return outcome.value;
  }

  it('throws RateLimitError at once, with retryAfterMs and nothing sent, when no slot frees up before the deadline', async () => {
    const { counts, client } = setup({ rateLimits: false });
    const c = client({ rateLimit: { perSecond: 1, burst: 1 }, deadlineMs: 300 });
    const started = Date.now();
    const first = await atOnce(c.orders.get(ORDER));
    expect(first).not.toBeInstanceOf(RateLimitError); // the one slot went to this call (404)
    const sent = counts.api;
    expect(sent).toBe(1); // the counter sees this client's calls
    const error = await atOnce(c.orders.get(ORDER));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(300);
    expect(counts.api).toBe(sent);
    expect(Date.now()).toBe(started);
    // The control: once the bucket refilled, the same call is sent and the same counter sees it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await atOnce(c.orders.get(ORDER))).not.toBeInstanceOf(RateLimitError);
    expect(counts.api).toBe(sent + 1);
  });

  it('a 429 that still arrives pauses every client sharing the store', async () => {
    const { mock, counts, client } = setup({ rateLimits: false });
    const store = new MemoryRateLimitStore();
    const a = client({ rateLimit: { tier: 'high', store } });
    const b = client({ rateLimit: { tier: 'high', store }, deadlineMs: 300 });
    mock.failNext({ status: 429, retryAfter: 2 });
    await atOnce(caught(a.orders.get(ORDER)));
    const sent = counts.api;
    const error = await atOnce(caught(b.orders.get(ORDER)));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(1500);
    expect(counts.api).toBe(sent); // b did not provoke a second 429
    // The control: once the pause is over, b's call is sent, and the same counter sees it.
    await vi.advanceTimersByTimeAsync(3_000);
    await atOnce(caught(b.orders.get(ORDER)));
    expect(counts.api).toBe(sent + 1);
  });
});
