// The mock's refunds (spec 3.3, 4.6): `createRefund()` with its checks, and `settleRefund()`, the
// processor's answer.
import { randomUUID } from 'node:crypto';
import type { MockCore } from '../engine/mock-core.js';
import { fail, MockControlError } from '../engine/respond.js';
import type { OrderRecord, PaymentRecord, RefundRecord } from '../state.js';
import { emitPaymentEvent, paymentById, touchPayment } from './payments.js';

// The refund aggregate: creating a refund (4.6) and the processor's answer to it (3.3).

/**
 * Why a payment that is not settled cannot be refunded, and what to do instead: a payment must be
 * settled before a refund; before that, voiding cancels it outright.
 */
export function refundRefusal(status: string): string {
  const base = `Only a settled payment can be refunded; this payment is ${status}`;
  if (status === 'pending' || status === 'approved') {
    return `${base}. Void it to cancel the charge, or wait until it is settled to refund it (in full or in part)`;
  }
  return `${base}, so there is nothing to refund`;
}

/**
 * Creates a pending refund of a settled payment after the checks of 4.6 (settled, inside the
 * processor's window, not above the refundable remainder). Throws the spec's error for each refusal.
 */
export function createRefund(
  core: MockCore,
  order: OrderRecord,
  payment: PaymentRecord,
  input: { amount_cents: number; reason?: string | null | undefined },
): RefundRecord {
  if (payment.status !== 'settled' && payment.status !== 'refunded') {
    throw fail.validation(refundRefusal(payment.status));
  }
  const settledAt = Date.parse(payment.settled_at ?? payment.updated_at);
  if (core.clock.now() - settledAt > core.options.refundWindowMs) {
    throw fail.conflict('refund_window_expired', "The processor's refund window for this payment has passed");
  }
  const taken = core.state
    .refundsOf(payment.payment_id)
    .filter((r) => r.status === 'pending' || r.status === 'approved')
    .reduce((sum, r) => sum + r.amount_cents, 0);
  const refundable = payment.amount_cents - taken;
  if (input.amount_cents > refundable) {
    throw fail.validation(
      `amount_cents ${input.amount_cents} exceeds the refundable remainder of ${refundable}`,
    );
  }
  const refund: RefundRecord = {
    refund_id: randomUUID(),
    payment_id: payment.payment_id,
    order_id: order.order_id,
    status: 'pending',
    amount_cents: input.amount_cents,
    reason: input.reason ?? null,
    created_at: core.clock.iso(),
    processor_message: null,
  };
  core.state.addRefund(refund);
  core.onCreated('refund', refund.refund_id);
  return refund;
}

/**
 * The processor's answer to a pending refund: `approved` (events `payment.refunded` and
 * `payment.reversal_settled`; the payment becomes refunded once approved refunds reach its amount)
 * or `failed` with a message (`payment.reversal_failed`). A {@link MockControlError} when the refund
 * is unknown or no longer pending; nothing changes then.
 */
export function settleRefund(core: MockCore, id: string, to: 'approved' | 'failed', message: string | null) {
  const r = core.state.refunds.get(id);
  if (!r) throw new MockControlError(`no refund ${id} in the mock`, 'not_found');
  if (r.status !== 'pending') throw new MockControlError(`refund ${id} is ${r.status}, not pending`);
  const p = paymentById(core, r.payment_id);
  r.status = to;
  r.processor_message = message;
  if (to === 'failed') {
    emitPaymentEvent(core, 'payment.reversal_failed', p, r);
    return;
  }
  const refunded = core.state
    .refundsOf(p.payment_id)
    .filter((x) => x.status === 'approved')
    .reduce((sum, x) => sum + x.amount_cents, 0);
  // api.md 9: a partial refund leaves the payment settled; the full amount makes it refunded.
  if (refunded >= p.amount_cents) p.status = 'refunded';
  touchPayment(core, p);
  emitPaymentEvent(core, 'payment.refunded', p, r);
  emitPaymentEvent(core, 'payment.reversal_settled', p, r);
}
