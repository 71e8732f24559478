// The intent store contract (src/core/stores/intent-store.ts) as a suite, run by
// intent-stores.test.ts against the memory store, Redis (node-redis, ioredis) and PostgreSQL 15, and
// by redis-cluster.test.ts against a Redis Cluster (node-redis's and ioredis's cluster clients):
// leases, conflicts, landed keys, lost and taken writes, release, unfinished(), refunds seen in
// events, an order's keys, and atomicity under concurrent calls.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IntentRecord, IntentStore } from '../../src/index.js';

const LONG = 60_000;
/** Lets a 1 ms lease lapse (the engines' clocks are this machine's). */
const lapse = () => new Promise((resolve) => setTimeout(resolve, 15));

/** The contract suite, once per store factory (each test makes its store anew). */
export function intentStoreContract(stores: [string, () => IntentStore][]): void {
  describe.each(stores)('%s', (_name, make) => {
    let store: IntentStore;
    /** Keys and orders of this test only: Redis and Postgres are shared by the whole file. */
    let ns: string;
    const key = (k: string) => `${ns}-${k}`;
    const order = (n = 1) => `${ns}-order-${n}`;
    const draft = (k: string, over: Partial<IntentRecord> = {}): IntentRecord => {
      const now = Date.now();
      return {
        key: key(k),
        kind: 'payment',
        fingerprint: 'fp-1',
        orderId: order(),
        amountCents: 1_000,
        method: 'card',
        state: 'open',
        sends: 0,
        createdAt: now,
        updatedAt: now,
        ...over,
      };
    };
    /** The record as the runner writes it after a step: state and result, written now. */
    const step = (record: IntentRecord, over: Partial<IntentRecord>): IntentRecord => ({
      ...record,
      ...over,
      updatedAt: Date.now(),
    });
    /** A key whose payment landed (`resultId`), its lease released. */
    const landed = async (k: string, resultId: string, over: Partial<IntentRecord> = {}) => {
      const d = draft(k, over);
      await store.begin(d, 'owner-landed', LONG);
      const record = step(d, { state: 'landed', resultId, result: { payment_id: resultId }, sends: 1 });
      expect(await store.put(record, 'owner-landed', true)).toBe('ok');
      return record;
    };
    const mine = (records: IntentRecord[]) =>
      records
        .filter((r) => r.key.startsWith(`${ns}-`))
        .map((r) => r.key)
        .sort();

    beforeEach(() => {
      store = make();
      ns = randomUUID().slice(0, 8);
    });

    it('begin on a new key acquires it and stores the draft; an unknown key reads undefined', async () => {
      const d = draft('new');
      expect(await store.begin(d, 'a', LONG)).toEqual({ status: 'acquired', record: d });
      expect(await store.get(key('new'))).toEqual(d);
      expect(await store.get(key('never'))).toBeUndefined();
    });

    it('the same key and fingerprint while another owner holds the lease is busy, with the lease end', async () => {
      const d = draft('busy');
      await store.begin(d, 'a', 10_000);
      const begun = await store.begin(d, 'b', LONG);
      expect(begun.status).toBe('busy');
      const { until } = begun as { until: number };
      expect(until).toBeGreaterThan(Date.now() + 8_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 10_000 + 50);
      // The holder itself renews its lease.
      expect((await store.begin(d, 'a', LONG)).status).toBe('acquired');
    });

    it('after the lease lapses another owner acquires the key, and the former owner can no longer write', async () => {
      const d = draft('lapsed');
      await store.begin(d, 'a', 1);
      await lapse();
      const begun = await store.begin(d, 'b', LONG);
      expect(begun).toEqual({ status: 'acquired', record: d });
      expect(await store.put(step(d, { state: 'unknown', sends: 1 }), 'a', true)).toBe('lost');
      expect(await store.put(step(d, { state: 'open', sends: 1 }), 'b', false)).toBe('ok');
      expect((await store.begin(d, 'c', LONG)).status).toBe('busy');
    });

    it("renew extends its holder's lease, and only while it holds the key", async () => {
      const d = draft('renew');
      expect(store.renew).toBeTypeOf('function');
      await store.begin(d, 'a', 1);
      expect(await store.renew!(d, 'a', 10_000)).toBe(true);
      await lapse(); // past the first lease: the renewed one holds
      const begun = await store.begin(d, 'b', LONG);
      expect(begun.status).toBe('busy');
      expect((begun as { until: number }).until).toBeGreaterThan(Date.now() + 8_000);
      expect(await store.renew!(d, 'b', LONG)).toBe(false);
      expect(await store.put(step(d, { state: 'not_landed', sends: 1 }), 'a', true)).toBe('ok');
      expect(await store.renew!(d, 'a', LONG)).toBe(false); // released
      expect(await store.renew!(draft('renew-never'), 'a', LONG)).toBe(false);
      expect((await store.begin(d, 'b', 1)).status).toBe('acquired');
      await lapse();
      expect((await store.begin(d, 'c', LONG)).status).toBe('acquired');
      expect(await store.renew!(d, 'b', LONG)).toBe(false); // lapsed and taken by another
    });

    it('another fingerprint is a conflict carrying the stored record, leased, released or landed', async () => {
      const d = draft('conflict');
      await store.begin(d, 'a', LONG);
      const other = { ...d, fingerprint: 'fp-2', amountCents: 1_200 };
      expect(await store.begin(other, 'b', LONG)).toEqual({ status: 'conflict', record: d });
      expect(await store.begin(other, 'a', LONG)).toEqual({ status: 'conflict', record: d });
      const record = await landed('conflict-landed', 'pay_1');
      const begun = await store.begin({ ...record, fingerprint: 'fp-2' }, 'b', LONG);
      expect(begun).toEqual({ status: 'conflict', record });
    });

    it('the same key on another order is a conflict carrying the first record, and leaves nothing on that order', async () => {
      const d = draft('other-order');
      await store.begin(d, 'a', LONG);
      const elsewhere = draft('other-order', { orderId: order(2), fingerprint: 'fp-other-order' });
      expect(await store.begin(elsewhere, 'b', LONG)).toEqual({ status: 'conflict', record: d });
      expect(await store.forOrder(order(2))).toEqual([]);
      expect(await store.get(key('other-order'))).toEqual(d);
      const record = await landed('other-order-landed', 'pay_1');
      const again = draft('other-order-landed', { orderId: order(3), fingerprint: 'fp-3' });
      expect(await store.begin(again, 'c', LONG)).toEqual({ status: 'conflict', record });
      expect(await store.forOrder(order(3))).toEqual([]);
    });

    it('a landed key is done for every owner, with its result, whether its lease was released or not', async () => {
      const record = await landed('done', 'pay_1');
      expect(await store.begin(draft('done'), 'b', LONG)).toEqual({ status: 'done', record });
      expect(await store.begin(draft('done'), 'owner-landed', LONG)).toEqual({ status: 'done', record });
      const d = draft('done-held');
      await store.begin(d, 'a', LONG);
      const held = step(d, { state: 'landed', resultId: 'pay_2', sends: 1 });
      expect(await store.put(held, 'a', false)).toBe('ok');
      expect(await store.begin(d, 'b', LONG)).toEqual({ status: 'done', record: held });
    });

    it("put by an owner that does not hold the lease is 'lost' and writes nothing", async () => {
      const d = draft('lost');
      await store.begin(d, 'a', LONG);
      expect(await store.put(step(d, { state: 'unknown', sends: 1 }), 'b', true)).toBe('lost');
      expect(await store.get(key('lost'))).toEqual(d);
      expect((await store.begin(d, 'c', LONG)).status).toBe('busy'); // still a's, not released
      const never = draft('never-begun');
      expect(await store.put(never, 'a', true)).toBe('lost');
      expect(await store.get(never.key)).toBeUndefined();
    });

    it("put with a result already another key's on the same order is 'taken' and writes nothing", async () => {
      await landed('first', 'pay_1');
      const d = draft('second');
      await store.begin(d, 'b', LONG);
      const claim = step(d, { state: 'landed', resultId: 'pay_1', sends: 1 });
      expect(await store.put(claim, 'b', true)).toBe('taken');
      expect(await store.get(key('second'))).toEqual(d);
      expect((await store.begin(d, 'c', LONG)).status).toBe('busy'); // the lease was not released
      // Its own result again, and the same id on another order, are fine; so is another id.
      const first = (await store.get(key('first')))!;
      expect(await store.begin(first, 'owner-landed', LONG)).toMatchObject({ status: 'done' });
      const elsewhere = draft('elsewhere', { orderId: order(2) });
      await store.begin(elsewhere, 'd', LONG);
      expect(await store.put(step(elsewhere, { state: 'landed', resultId: 'pay_1' }), 'd', true)).toBe('ok');
      expect(await store.put(step(d, { state: 'landed', resultId: 'pay_2' }), 'b', true)).toBe('ok');
      expect((await store.get(key('second')))?.resultId).toBe('pay_2');
    });

    it('a put that releases frees the lease at once; a not-landed key is acquired with its record', async () => {
      const d = draft('release');
      await store.begin(d, 'a', LONG);
      const notLanded = step(d, { state: 'not_landed', sends: 1, firstSentAt: Date.now() });
      expect(await store.put(notLanded, 'a', true)).toBe('ok');
      expect(await store.begin(d, 'b', LONG)).toEqual({ status: 'acquired', record: notLanded });
      const kept = step(notLanded, { state: 'open', sends: 2 });
      expect(await store.put(kept, 'b', false)).toBe('ok');
      expect((await store.begin(d, 'c', LONG)).status).toBe('busy'); // put without release keeps it
    });

    it('unfinished(olderThanMs) lists open and unknown keys no live owner holds, last written long enough ago', async () => {
      const released = async (k: string, state: IntentRecord['state']) => {
        const d = draft(k);
        await store.begin(d, 'a', LONG);
        expect(await store.put(step(d, { state, sends: 1, firstSentAt: Date.now() }), 'a', true)).toBe('ok');
      };
      await released('old-open', 'open');
      await released('old-unknown', 'unknown');
      await released('old-landed', 'landed');
      await released('old-not-landed', 'not_landed');
      await store.begin(draft('old-leased'), 'a', LONG); // a live call holds it
      await store.begin(draft('old-lapsed'), 'dead', 1); // its holder died before writing
      const held = draft('old-held');
      await store.begin(held, 'a', LONG);
      await store.put(step(held, { sends: 1, firstSentAt: Date.now() }), 'a', false); // in flight
      await lapse();
      const cut = Date.now();
      await lapse();
      await released('new-open', 'open');
      await released('new-unknown', 'unknown');

      const old = ['old-lapsed', 'old-open', 'old-unknown'].map(key).sort();
      expect(mine(await store.unfinished(Date.now() - cut))).toEqual(old);
      expect(mine(await store.unfinished(0))).toEqual([...old, key('new-open'), key('new-unknown')].sort());
      expect(mine(await store.unfinished(LONG))).toEqual([]);
      const listed = (await store.unfinished(0)).find((r) => r.key === key('old-unknown'));
      expect(listed).toMatchObject({ state: 'unknown', sends: 1 });
    });

    it('noteRefund and refundsOf keep the refunds seen per payment, once per refund id', async () => {
      const seen = (refundId: string, paymentId: string, amountCents = 500) => ({
        refundId: key(refundId),
        paymentId: key(paymentId),
        orderId: order(),
        amountCents,
        occurredAt: 1_700_000_000_000,
      });
      await store.noteRefund(seen('r1', 'p1'));
      await store.noteRefund(seen('r2', 'p1', 300));
      await store.noteRefund(seen('r3', 'p2'));
      await store.noteRefund(seen('r1', 'p1')); // the same event delivered again
      const byId = (a: { refundId: string }, b: { refundId: string }) => a.refundId.localeCompare(b.refundId);
      expect((await store.refundsOf(key('p1'))).sort(byId)).toEqual([
        seen('r1', 'p1'),
        seen('r2', 'p1', 300),
      ]);
      expect(await store.refundsOf(key('p2'))).toEqual([seen('r3', 'p2')]);
      expect(await store.refundsOf(key('p3'))).toEqual([]);
    });

    it('made lists the orders noted and the payments and refunds that landed in a window, with their times', async () => {
      if (!store.noteOrder || !store.made) throw new Error('the store has no noteOrder/made');
      const t0 = Date.now();
      await store.noteOrder({ orderId: order(1), createdAt: t0 });
      await store.noteOrder({ orderId: order(1), createdAt: t0 + 5 }); // the same order again: kept once
      await store.noteOrder({ orderId: order(9), createdAt: t0 - 3 * 3_600_000 }); // out of the window
      const pay = await landed('made-pay', `${ns}-pay-1`);
      await landed('made-refund', `${ns}-refund-1`, {
        kind: 'refund',
        paymentId: `${ns}-pay-1`,
        method: undefined,
      });
      await store.begin(draft('made-open'), 'a', LONG); // open: not made yet
      const mineMade = (await store.made({ from: t0 - 3_600_000, to: Date.now() + 1_000 })).filter((m) =>
        m.orderId.startsWith(`${ns}-`),
      );
      const byKind = (a: { kind: string }, b: { kind: string }) => a.kind.localeCompare(b.kind);
      expect(mineMade.sort(byKind)).toEqual([
        { kind: 'order', orderId: order(1), createdAt: t0 },
        { kind: 'payment', orderId: order(1), paymentId: `${ns}-pay-1`, createdAt: pay.createdAt },
        {
          kind: 'refund',
          orderId: order(1),
          paymentId: `${ns}-pay-1`,
          refundId: `${ns}-refund-1`,
          createdAt: expect.any(Number),
        },
      ]);
      // A window that ends before them holds none of them.
      const before = await store.made({ from: t0 - 3_600_000, to: t0 - 1 });
      expect(before.filter((m) => m.orderId === order(1))).toEqual([]);
      expect(
        (await store.made({ from: 0, to: Date.now() })).filter((m) => m.orderId === order(9)),
      ).toHaveLength(1);
    });

    it('forOrder lists every key of an order, in any state, and no other', async () => {
      await landed('o1-landed', 'pay_1');
      await store.begin(draft('o1-open'), 'a', LONG);
      await store.begin(draft('o2-open', { orderId: order(2) }), 'a', LONG);
      expect(mine(await store.forOrder(order()))).toEqual([key('o1-landed'), key('o1-open')].sort());
      expect(mine(await store.forOrder(order(2)))).toEqual([key('o2-open')]);
      expect(await store.forOrder(order(3))).toEqual([]);
      const one = (await store.forOrder(order())).find((r) => r.key === key('o1-landed'));
      expect(one).toMatchObject({ state: 'landed', resultId: 'pay_1' });
    });

    it('8 begins of one new key at the same moment: one acquires, 7 are busy', async () => {
      const d = draft('race');
      const begun = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.begin(d, `owner-${i}`, LONG)),
      );
      const statuses = begun.map((b) => b.status).sort();
      expect(statuses).toEqual(['acquired', ...Array(7).fill('busy')]);
    });

    it("two keys writing the same result at the same moment: one 'ok', one 'taken'", async () => {
      const a = draft('twin-a');
      const b = draft('twin-b');
      await store.begin(a, 'a', LONG);
      await store.begin(b, 'b', LONG);
      const written = await Promise.all([
        store.put(step(a, { state: 'landed', resultId: 'pay_twin' }), 'a', true),
        store.put(step(b, { state: 'landed', resultId: 'pay_twin' }), 'b', true),
      ]);
      expect(written.sort()).toEqual(['ok', 'taken']);
      const owners = (await store.forOrder(order())).filter((r) => r.resultId === 'pay_twin');
      expect(owners).toHaveLength(1);
    });
  });
}
