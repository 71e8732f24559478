// MemoryIntentStore's bounds (src/core/stores/memory-intent-store.ts): finished intents leave after the TTL
// or beyond the cap (oldest first), open and unknown ones never do; refunds seen in events leave
// after the TTL; the "result already another key's" check reads the order's keys, not every key.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type IntentRecord, MemoryIntentStore } from '../../src/index.js';

const draft = (key: string, orderId = `order-${key}`): IntentRecord => {
  const now = Date.now();
  return {
    key,
    kind: 'payment',
    fingerprint: 'fp',
    orderId,
    amountCents: 1_000,
    method: 'card',
    state: 'open',
    sends: 1,
    createdAt: now,
    updatedAt: now,
  };
};

async function finish(store: MemoryIntentStore, key: string, orderId?: string, resultId = `pay-${key}`) {
  const d = draft(key, orderId);
  expect((await store.begin(d, 'o', 60_000)).status).toBe('acquired');
  const landed = { ...d, state: 'landed' as const, resultId, result: { payment_id: resultId } };
  expect(await store.put(landed, 'o', true)).toBe('ok');
}

describe('MemoryIntentStore bounds', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-26T00:00:00Z'), toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());

  it('keeps at most maxIntents: the oldest finished intents go first, open ones stay', async () => {
    const store = new MemoryIntentStore({ maxIntents: 10 });
    await store.begin(draft('open-1'), 'holder', 60_000); // oldest, and never finished
    for (let i = 0; i < 30; i++) await finish(store, `k${i}`);
    expect(store.size).toBeLessThanOrEqual(10);
    expect(await store.get('open-1')).toMatchObject({ state: 'open' });
    expect(await store.get('k29')).toMatchObject({ state: 'landed' });
    expect(await store.get('k0')).toBeUndefined();
    // A dropped key leaves the order index too.
    expect(await store.forOrder('order-k0')).toEqual([]);
  });

  it('a key finished late (after an unknown outcome) is dropped last, not first: the key a partner reruns', async () => {
    const store = new MemoryIntentStore({ maxIntents: 10 });
    const late = draft('late');
    await store.begin(late, 'holder', 60_000); // the oldest key: its outcome stays unknown a while
    for (let i = 0; i < 8; i++) await finish(store, `early${i}`);
    const landed = {
      ...late,
      state: 'landed' as const,
      resultId: 'pay-late',
      result: { payment_id: 'pay-late' },
    };
    expect(await store.put(landed, 'holder', true)).toBe('ok'); // a rerun settles it at last
    for (let i = 0; i < 5; i++) await finish(store, `next${i}`); // the cap drops the oldest finished
    expect(await store.get('late')).toMatchObject({ state: 'landed', resultId: 'pay-late' });
    // Control: a key finished as early as it was created is dropped by the same pressure.
    expect(await store.get('early0')).toBeUndefined();
  });

  it('an order with many keys keeps its index through pruning, each dropped key leaving it at once', async () => {
    const store = new MemoryIntentStore({ maxIntents: 1_000 });
    // Synchronous begin and land (the runner's path on this store): nothing else runs meanwhile. What
    // this costs per key is the bench's (bench/intents.ts); here, what the store promises.
    for (let i = 0; i < 5_000; i++) {
      const d = draft(`k${i}`, 'one-order');
      expect(store.beginNow(d, 'o', 60_000).status).toBe('acquired');
      expect(store.landNow(d, 'o', `pay-${i}`, { payment_id: `pay-${i}` })).toBe('ok');
    }
    expect(store.size).toBeLessThanOrEqual(1_000);
    const kept = (await store.forOrder('one-order')).map((r) => r.key);
    expect(kept).toHaveLength(store.size);
    expect(kept.at(-1)).toBe('k4999');
    expect(kept).toEqual([...kept].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
    expect(await store.get('k0')).toBeUndefined();
  });

  it('drops finished intents after ttlMs, keeps unknown ones', async () => {
    const store = new MemoryIntentStore({ ttlMs: 1_000 });
    await finish(store, 'old');
    await store.begin(draft('unsure'), 'o', 60_000);
    await store.put({ ...draft('unsure'), state: 'unknown' }, 'o', true);
    vi.setSystemTime(Date.now() + 2_000);
    // Pruning runs every 256 begins.
    for (let i = 0; i < 256; i++) await store.begin(draft(`new-${i}`), 'o', 60_000);
    expect(await store.get('old')).toBeUndefined();
    expect(await store.get('unsure')).toMatchObject({ state: 'unknown' });
  });

  it('keeps the refunds seen for ttlMs', async () => {
    const store = new MemoryIntentStore({ ttlMs: 1_000 });
    const seen = { refundId: 'ref-1', paymentId: 'pay-1', orderId: 'o-1', amountCents: 5, occurredAt: 1 };
    await store.noteRefund(seen);
    expect(await store.refundsOf('pay-1')).toEqual([seen]);
    vi.setSystemTime(Date.now() + 2_000);
    for (let i = 0; i < 256; i++)
      await store.noteRefund({ ...seen, refundId: `r${i}`, paymentId: `other-${i}` });
    expect(await store.refundsOf('pay-1')).toEqual([]);
    expect(await store.refundsOf('other-255')).toHaveLength(1);
  });

  it("a result already another key's on the order is 'taken', found among the order's keys", async () => {
    const store = new MemoryIntentStore();
    await finish(store, 'a', 'order-1', 'pay-1');
    const b = draft('b', 'order-1');
    await store.begin(b, 'o', 60_000);
    expect(await store.put({ ...b, state: 'landed', resultId: 'pay-1' }, 'o', true)).toBe('taken');
    // The same id on another order is not taken.
    const c = draft('c', 'order-2');
    await store.begin(c, 'o', 60_000);
    expect(await store.put({ ...c, state: 'landed', resultId: 'pay-1' }, 'o', false)).toBe('ok');
  });

  it("the 'taken' check reads the order's keys: 10,000 finished keys elsewhere cost a put nearly nothing", async () => {
    // Relative, not a wall-clock budget: 1,000 puts beside 10 finished keys against beside 10,000,
    // the quicker of three tries each. Reading every key would make the second some 1,000 times
    // slower; the bound leaves a loaded machine's noise 20 times the room.
    const puts = async (finished: number) => {
      const store = new MemoryIntentStore({ maxIntents: 20_000 });
      for (let i = 0; i < finished; i++) await finish(store, `many-${i}`);
      const c = draft('c', 'order-2');
      await store.begin(c, 'o', 60_000);
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 3; round++) {
        const started = performance.now();
        for (let i = 0; i < 1_000; i++)
          await store.put({ ...c, state: 'landed', resultId: `pay-${i}` }, 'o', false);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const few = await puts(10);
    const many = await puts(10_000);
    expect(many).toBeLessThan(20 * Math.max(few, 1));
  });

  it("an id recorded on two orders is still one key's on each", async () => {
    const store = new MemoryIntentStore();
    await finish(store, 'a', 'order-1', 'pay-1');
    await finish(store, 'c', 'order-2', 'pay-1'); // the same id on another order: fine
    const d = draft('d', 'order-2');
    await store.begin(d, 'o', 60_000);
    expect(await store.put({ ...d, state: 'landed', resultId: 'pay-1' }, 'o', true)).toBe('taken');
    const e = draft('e', 'order-3');
    await store.begin(e, 'o', 60_000);
    expect(await store.put({ ...e, state: 'landed', resultId: 'pay-1' }, 'o', true)).toBe('ok'); // control
  });

  it("lands a new key's own draft in place only while its caller holds the lease", async () => {
    const store = new MemoryIntentStore();
    const mine = draft('mine');
    expect(store.beginNow(mine, 'a', 1_000)).toEqual({ status: 'acquired', record: mine });
    expect(store.landNow(mine, 'a', 'pay-mine', { payment_id: 'pay-mine' })).toBe('ok');
    expect(await store.get('mine')).toMatchObject({ state: 'landed', resultId: 'pay-mine' });
    // Another call took the key over after the lease ran out: nothing is written.
    const late = draft('late');
    store.beginNow(late, 'a', 1_000);
    vi.setSystemTime(Date.now() + 2_000);
    expect((await store.begin(late, 'b', 60_000)).status).toBe('acquired');
    expect(store.landNow(late, 'a', 'pay-late', { payment_id: 'pay-late' })).toBe('lost');
    const kept = await store.get('late');
    expect(kept?.state).toBe('open');
    expect(kept?.resultId).toBeUndefined();
    expect(late.state).toBe('open');
  });
});
