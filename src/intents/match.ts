// The pure rules of reconciliation (docs/idempotency.md): which payments of an order, or which
// refunds seen in webhook events, can be the resource a key's lost request created.
import type { IntentRecord, RefundSighting } from '../core/stores/intent-store.js';

/** A payment as an order read lists it (spec 2.1: payment_id, status, amount_cents, method, created_at). */
export interface ListedPayment {
  payment_id: string;
  status: string;
  amount_cents: number;
  method: string;
  created_at: string;
}

/**
 * What the service's clock may differ from ours by, in ms: `low <= service - local <= high`. From a
 * `Date` header (one-second resolution) read between `before` and `after`; without one, ±30 s.
 */
export interface Skew {
  low: number;
  high: number;
}

/** The skew assumed when a read carried no `Date` header. */
export const UNKNOWN_SKEW: Skew = { low: -30_000, high: 30_000 };
/** Slack on either side of the send window, for the service's own processing time. */
const MARGIN_MS = 1_000;

/** The skew a read's `Date` header shows (it names a second: the service was in [date, date + 1 s)). */
export function skewOf(date: string | undefined, before: number, after: number): Skew {
  const at = date === undefined ? Number.NaN : Date.parse(date);
  if (Number.isNaN(at)) return UNKNOWN_SKEW;
  return { low: at - after, high: at + 1_000 - before };
}

/** The verdict on one reading: adopt one, wait for rivals or the service, or give up on several. */
export interface Match<T> {
  /** Resources that can be this key's. */
  candidates: T[];
  /**
   * Resources of the same amount owned by no key, in the window or not: while there is one, the SDK
   * never concludes "not landed" (a clock it misjudged must not turn into a second charge).
   */
  unowned: number;
  /** Other keys of the same order and amount whose outcome is not known yet: they could own a candidate. */
  rivals: IntentRecord[];
}

/** Results already owned by other keys of the order: never another key's candidate. */
function owned(record: IntentRecord, others: readonly IntentRecord[]): Set<string> {
  const ids = new Set<string>();
  for (const o of others) if (o.key !== record.key && o.resultId !== undefined) ids.add(o.resultId);
  return ids;
}

function rivalsOf(record: IntentRecord, others: readonly IntentRecord[]): IntentRecord[] {
  return others.filter(
    (o) =>
      o.key !== record.key &&
      o.kind === record.kind &&
      o.paymentId === record.paymentId &&
      o.resultId === undefined &&
      o.firstSentAt !== undefined &&
      o.state !== 'not_landed' &&
      o.amountCents === record.amountCents &&
      o.method === record.method,
  );
}

/**
 * The payments of an order that can be what `record`'s sends created: same amount and method, not
 * another key's, and created (by the service's clock) between the first send and now.
 */
export function matchPayments(
  record: IntentRecord,
  payments: readonly ListedPayment[],
  others: readonly IntentRecord[],
  skew: Skew,
  now: number,
): Match<ListedPayment> {
  const taken = owned(record, others);
  const from = (record.firstSentAt ?? now) + skew.low - MARGIN_MS;
  const to = now + skew.high + MARGIN_MS;
  const same = payments.filter(
    (p) => p.amount_cents === record.amountCents && p.method === record.method && !taken.has(p.payment_id),
  );
  const candidates = same.filter((p) => {
    const at = Date.parse(p.created_at);
    return at >= from && at <= to;
  });
  return { candidates, unowned: same.length, rivals: rivalsOf(record, others) };
}

/**
 * The refunds seen in webhook events that can be what `record`'s sends created: same payment and
 * amount, not another key's, the event after the first send (with the unknown-skew allowance).
 */
export function matchRefunds(
  record: IntentRecord,
  seen: readonly RefundSighting[],
  others: readonly IntentRecord[],
): Match<RefundSighting> {
  const taken = owned(record, others);
  const from = (record.firstSentAt ?? Number.POSITIVE_INFINITY) + UNKNOWN_SKEW.low - MARGIN_MS;
  const same = seen.filter(
    (s) => s.paymentId === record.paymentId && s.amountCents === record.amountCents && !taken.has(s.refundId),
  );
  const candidates = same.filter((s) => s.occurredAt >= from);
  return { candidates, unowned: same.length, rivals: rivalsOf(record, others) };
}
