// The pure rules of reconciliation (src/intents/match.ts), table-driven: which payments can be
// a key's, how the service's clock is bounded from a Date header, and refunds seen in events.
import { describe, expect, it } from 'vitest';
import type { IntentRecord } from '../../src/core/stores/intent-store.js';
import {
  type ListedPayment,
  matchPayments,
  matchRefunds,
  skewOf,
  UNKNOWN_SKEW,
} from '../../src/intents/match.js';

const T0 = Date.parse('2026-11-26T10:00:00Z');
const record = (over: Partial<IntentRecord> = {}): IntentRecord => ({
  key: 'k',
  kind: 'payment',
  fingerprint: 'f',
  orderId: 'o',
  amountCents: 1_000,
  method: 'card',
  state: 'open',
  sends: 1,
  firstSentAt: T0,
  lastSentAt: T0,
  createdAt: T0,
  updatedAt: T0,
  ...over,
});
const payment = (id: string, atMs: number, over: Partial<ListedPayment> = {}): ListedPayment => ({
  payment_id: id,
  status: 'pending',
  amount_cents: 1_000,
  method: 'card',
  created_at: new Date(atMs).toISOString(),
  ...over,
});
const exact = { low: 0, high: 0 };

describe('matchPayments', () => {
  it.each([
    ['the payment created after the send', [payment('p1', T0 + 50)], ['p1'], 1],
    [
      'one created long before the send is no candidate, but still unowned',
      [payment('old', T0 - 60_000)],
      [],
      1,
    ],
    ['another amount is not it', [payment('p1', T0 + 50, { amount_cents: 999 })], [], 0],
    ['another method is not it', [payment('p1', T0 + 50, { method: 'ach' })], [], 0],
    ['two in the window are both candidates', [payment('a', T0 + 10), payment('b', T0 + 20)], ['a', 'b'], 2],
  ] as const)('%s', (_name, payments, ids, unowned) => {
    const m = matchPayments(record(), payments, [], exact, T0 + 100);
    expect(m.candidates.map((p) => p.payment_id)).toEqual(ids);
    expect(m.unowned).toBe(unowned);
  });

  it("another key's payment is neither a candidate nor unowned; an unresolved key of the same amount is a rival", () => {
    const owner = record({ key: 'other', resultId: 'a', state: 'landed' });
    const rival = record({ key: 'rival' });
    const m = matchPayments(
      record(),
      [payment('a', T0 + 10), payment('b', T0 + 20)],
      [owner, rival],
      exact,
      T0 + 100,
    );
    expect(m.candidates.map((p) => p.payment_id)).toEqual(['b']);
    expect(m.unowned).toBe(1);
    expect(m.rivals.map((r) => r.key)).toEqual(['rival']);
  });

  it("widens the window by the service clock's uncertainty", () => {
    const behind = { low: -5_000, high: -4_000 }; // the service is ~5 s behind us
    const m = matchPayments(record(), [payment('p', T0 - 4_500)], [], behind, T0 + 100);
    expect(m.candidates).toHaveLength(1);
    expect(matchPayments(record(), [payment('p', T0 - 4_500)], [], exact, T0 + 100).candidates).toHaveLength(
      0,
    );
  });
});

describe('skewOf', () => {
  it('bounds the service clock by a Date header read between two local times', () => {
    const date = new Date(T0 + 2_000).toUTCString(); // the service said T0+2 s while we were at T0..T0+100
    expect(skewOf(date, T0, T0 + 100)).toEqual({ low: 1_900, high: 3_000 });
  });
  it('without a Date header assumes ±30 s', () => {
    expect(skewOf(undefined, T0, T0)).toBe(UNKNOWN_SKEW);
    expect(skewOf('not a date', T0, T0)).toBe(UNKNOWN_SKEW);
  });
});

describe('matchRefunds', () => {
  const refund = record({ kind: 'refund', paymentId: 'pay', method: undefined, amountCents: 500 });
  const seen = (refundId: string, over: object = {}) => ({
    refundId,
    paymentId: 'pay',
    orderId: 'o',
    amountCents: 500,
    occurredAt: T0 + 1_000,
    ...over,
  });
  it('a refund event of the same payment and amount after the send', () => {
    expect(matchRefunds(refund, [seen('r1')], []).candidates.map((r) => r.refundId)).toEqual(['r1']);
    expect(matchRefunds(refund, [seen('r1', { amountCents: 400 })], []).candidates).toEqual([]);
    expect(matchRefunds(refund, [seen('r1', { paymentId: 'other' })], []).candidates).toEqual([]);
    expect(matchRefunds(refund, [seen('r1', { occurredAt: T0 - 3_600_000 })], []).candidates).toEqual([]);
  });
});
