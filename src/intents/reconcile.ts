// Reconciliation: after a payment or refund's answer was lost, what the service's own records say
// happened to it (landed, not landed, unknown), by the rules of match.ts and docs/idempotency.md.

import { APIUserAbortError } from '../core/errors/api-errors.js';
import { RETRYABLE_STATUSES } from '../core/limits/retry.js';
import type { EventSink } from '../core/observe/events.js';
import type { LogFn } from '../core/observe/logger.js';
import type { IntentRecord, IntentStore } from '../core/stores/intent-store.js';
import { onClock, sleepOn, type WaitClock } from '../internal/wait-clock.js';
import { type ListedPayment, matchPayments, matchRefunds, skewOf } from './match.js';

/** What reconciliation reads from the service, through the client's own resources. */
export interface IntentIO {
  store: IntentStore;
  /** The order's payments, and the read's `Date` header with local times around it. */
  readOrder(
    orderId: string,
    signal: AbortSignal | undefined,
    readBy: number | undefined,
  ): Promise<{ payments: ListedPayment[]; date: string | undefined; before: number; after: number }>;
  readPayment(
    orderId: string,
    paymentId: string,
    signal: AbortSignal | undefined,
    readBy: number | undefined,
  ): Promise<{ status: string }>;
  readRefund(
    orderId: string,
    paymentId: string,
    refundId: string,
    signal: AbortSignal | undefined,
    readBy: number | undefined,
  ): Promise<Record<string, unknown>>;
  log: LogFn | undefined;
  /** How long after a send the service is taken to be done with it (client option `settleMs`). */
  settleMs: number;
  /**
   * The client's wait clock: the time line of a send's stamps (`firstSentAt`, `lastSentAt`), of an
   * order read's `before` and `after`, and of reconciliation's waits, so that "settleMs after the
   * last send" is measured on one line. The real clock (nothing changes), but with a manual-clock
   * mock, whose clients stamp and wait on real time plus what the test advanced. That time is never
   * behind real time, so a process on real time reading such a stamp from a shared store sees the
   * send as later than it was: it waits longer to settle and matches fewer candidates (an unknown
   * outcome, never a second charge). The store's own times (`createdAt`, `updatedAt`, leases) stay
   * real time.
   */
  clock: WaitClock;
}

/** A reconciliation's verdict; `landed` carries the resource, as the create call would return it. */
export type Verdict =
  | { outcome: 'landed'; id: string; resource: Record<string, unknown> }
  | { outcome: 'not_landed' }
  | { outcome: 'unknown'; candidates: string[]; facts: string };

/**
 * The verdict on `record` (a call's lost answer, or an intent `client.recover()` found open), and a
 * `reconcile` event for it (with the call's id, when a call asks). An intent never sent did not land.
 * A read that fails after its retries makes the verdict `unknown`: nothing known, nothing resent.
 * A call's reads end by `readBy` (its deadline); `client.recover()` sets none.
 */
export async function reconcile(
  io: IntentIO & { events: EventSink },
  record: IntentRecord,
  until: number,
  signal: AbortSignal | undefined,
  callId: string | undefined,
  readBy?: number,
): Promise<Verdict> {
  let verdict: Verdict;
  // What is left of `until` bounds the waits on the wait clock (as a deadline bounds a poll's wait);
  // the reads keep the real `readBy`.
  const end = onClock(io.clock, until);
  try {
    verdict =
      record.firstSentAt === undefined
        ? { outcome: 'not_landed' }
        : record.kind === 'payment'
          ? await reconcilePayment(io, record, end, signal, readBy)
          : await reconcileRefund(io, record, signal, readBy);
  } catch (error) {
    // The reads failed (the service is down, the caller aborted).
    const reason = error instanceof Error ? error.message : String(error);
    io.log?.('warn', `intent ${record.key} could not be reconciled (${reason})`);
    verdict = {
      outcome: 'unknown',
      candidates: [],
      facts: `the service's records could not be read (${reason})`,
    };
  }
  if (io.events.wants('reconcile')) io.events.emit('reconcile', { callId, ...settled(record, verdict) });
  return verdict;
}

/** What a verdict says of a key: a `reconcile` event's fields, and a `client.recover()` entry. */
export function settled(record: IntentRecord, verdict: Verdict) {
  const landed = verdict.outcome === 'landed' ? verdict.id : undefined;
  return {
    idempotencyKey: record.key,
    kind: record.kind,
    orderId: record.orderId,
    paymentId: record.kind === 'payment' ? landed : record.paymentId,
    refundId: record.kind === 'refund' ? landed : undefined,
    outcome: verdict.outcome,
    candidates:
      verdict.outcome === 'unknown' && verdict.candidates.length > 0 ? verdict.candidates : undefined,
  };
}

/** Re-reads at most this often while waiting for the service or for rival keys. */
const POLL_MS = 1_000;

/**
 * A payment's verdict: read the order until one candidate is this key's (landed), or none is and the
 * last send is `settleMs` old (not landed), or `until` passes (unknown). Times are on `io.clock`.
 */
async function reconcilePayment(
  io: IntentIO,
  record: IntentRecord,
  until: number,
  signal: AbortSignal | undefined,
  readBy: number | undefined,
): Promise<Verdict> {
  for (;;) {
    const read = await readOrder(io, record.orderId, until, signal, readBy);
    const others = await io.store.forOrder(record.orderId);
    const now = io.clock.now();
    const { candidates, unowned, rivals } = matchPayments(
      record,
      read.payments,
      others,
      skewOf(read.date, read.before, read.after),
      now,
    );
    const ids = candidates.map((c) => c.payment_id);
    if (candidates.length === 1 && rivals.length === 0) {
      const p = candidates[0] as ListedPayment;
      return { outcome: 'landed', id: p.payment_id, resource: { ...p, order_id: record.orderId } };
    }
    // Settled only when the read itself was sent after the bound: a read sent earlier may have missed
    // a payment the service was still committing, however late its answer arrived.
    const settled = read.before >= (record.lastSentAt ?? 0) + io.settleMs;
    if (unowned === 0 && settled) return { outcome: 'not_landed' };
    if (candidates.length === 0 && settled) {
      return {
        outcome: 'unknown',
        candidates: [],
        facts: `no payment of ${record.amountCents} cents on order ${record.orderId} was created after the send by the service's clock, but ${unowned} such payment(s) owned by no key exist; the SDK does not send again while one could be this one`,
      };
    }
    if (candidates.length > 1 && rivals.length === 0) {
      return {
        outcome: 'unknown',
        candidates: ids,
        facts: `${candidates.length} payments of ${record.amountCents} cents on order ${record.orderId} could be this one (${ids.join(', ')})`,
      };
    }
    const wait = Math.min(
      POLL_MS,
      until - now,
      settled ? POLL_MS : Math.max(1, (record.lastSentAt ?? 0) + io.settleMs - now + 1),
    );
    if (wait <= 0 || now + wait >= until) {
      const facts =
        rivals.length > 0
          ? `${rivals.length} other key(s) charged the same amount on order ${record.orderId} and their outcome is not known yet`
          : `no payment of ${record.amountCents} cents on order ${record.orderId} yet, but the service may still be processing the request (settleMs ${io.settleMs})`;
      return { outcome: 'unknown', candidates: ids, facts };
    }
    await sleepOn(io.clock, wait, signal, APIUserAbortError);
  }
}

/** The first wait before an order read that failed is made again (doubling up to POLL_MS). */
const REREAD_MS = 100;

/**
 * The order, read again after a failed read (its own retries spent) while `until` leaves time: a
 * read is safe to repeat, and giving up early would leave a landed payment unknown. A refusal that
 * a new read cannot change (a 4xx other than 408 and 429) and the caller's abort end it at once.
 */
async function readOrder(
  io: IntentIO,
  orderId: string,
  until: number,
  signal: AbortSignal | undefined,
  readBy: number | undefined,
): ReturnType<IntentIO['readOrder']> {
  for (let wait = REREAD_MS; ; wait = Math.min(wait * 2, POLL_MS)) {
    try {
      return await io.readOrder(orderId, signal, readBy);
    } catch (error) {
      const status = (error as { status?: unknown } | undefined)?.status;
      // A refusal the retry policy would not retry either is final; a 2xx whose body could not be
      // read (InvalidResponseError) is a lost answer: read again.
      const final =
        typeof status === 'number' && status >= 400 && status < 500 && !RETRYABLE_STATUSES.has(status);
      if (final || signal?.aborted || io.clock.now() + wait >= until) throw error;
      io.log?.(
        'debug',
        `reading order ${orderId} to reconcile failed (${String(error)}); again in ${wait} ms`,
      );
      await sleepOn(io.clock, wait, signal, APIUserAbortError);
    }
  }
}

/**
 * A refund's verdict. The service lists no refunds of a payment: a refund lands only when a webhook
 * event recorded it in the intent store (`createWebhookHandler({ intentStore })`); it never counts
 * as not landed. The payment's status goes into the facts.
 */
async function reconcileRefund(
  io: IntentIO,
  record: IntentRecord,
  signal: AbortSignal | undefined,
  readBy: number | undefined,
): Promise<Verdict> {
  const paymentId = record.paymentId as string;
  const [seen, others] = await Promise.all([
    io.store.refundsOf(paymentId),
    io.store.forOrder(record.orderId),
  ]);
  const { candidates, rivals } = matchRefunds(record, seen, others);
  const ids = candidates.map((c) => c.refundId);
  if (candidates.length === 1 && rivals.length === 0) {
    const refundId = ids[0] as string;
    const resource = await io.readRefund(record.orderId, paymentId, refundId, signal, readBy);
    return { outcome: 'landed', id: refundId, resource };
  }
  let status = 'unread';
  try {
    status = (await io.readPayment(record.orderId, paymentId, signal, readBy)).status;
  } catch (error) {
    io.log?.('debug', `reading payment ${paymentId} for a refund's reconciliation failed: ${String(error)}`);
  }
  const facts =
    candidates.length > 1
      ? `${candidates.length} refunds of ${record.amountCents} cents on payment ${paymentId} were seen (${ids.join(', ')})`
      : `no refund event of ${record.amountCents} cents on payment ${paymentId} has been seen yet (the payment is ${status}); the service lists no refunds of a payment, so the refund becomes known when its payment.refunded event reaches createWebhookHandler({ intentStore }), then a rerun with this key or client.recover() returns it`;
  return { outcome: 'unknown', candidates: ids, facts };
}
