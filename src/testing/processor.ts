import type { KnownEventKind } from '../schemas/events.js';
import type { MockCore } from './core.js';
import { MockControlError } from './respond.js';
import type { PaymentRecord, RefundRecord } from './state.js';
import { eventResource } from './views.js';

/**
 * The card processor's outcomes, driven by a test (spec 3.1 and 3.3; api.md section 9 for
 * settled/declined/failed). Each method throws {@link MockControlError} when the transition is not
 * allowed from the current status, so a test that drives the wrong payment finds out at once.
 *
 * @example
 * mock.processor.approve(payment.payment_id); // pending -> approved, fires payment.approved
 * mock.processor.settle(payment.payment_id);  // approved -> settled, no event
 */
export interface MockProcessor {
  /** pending -> approved; event `payment.approved`. */
  approve(paymentId: string): void;
  /** pending -> declined; no event. */
  decline(paymentId: string): void;
  /** pending -> failed (processing error); no event (`payment.failed` is not delivered). */
  fail(paymentId: string): void;
  /** approved -> settled; no event. */
  settle(paymentId: string): void;
  /** pending -> cancelled (operator); event `payment.cancelled`. */
  cancel(paymentId: string): void;
  /** pending -> expired (time-to-live); event `payment.expired`. */
  expire(paymentId: string): void;
  /** refund pending -> approved; events `payment.refunded` and `payment.reversal_settled`. */
  confirmRefund(refundId: string): void;
  /** refund pending -> failed with `processor_message`; event `payment.reversal_failed`. */
  rejectRefund(refundId: string, message?: string): void;
}

export function createProcessor(core: MockCore): MockProcessor {
  const payment = (id: string): PaymentRecord => {
    const p = core.state.payments.get(id);
    if (!p) throw new MockControlError(`no payment ${id} in the mock`, 'not_found');
    return p;
  };
  const refund = (id: string): RefundRecord => {
    const r = core.state.refunds.get(id);
    if (!r) throw new MockControlError(`no refund ${id} in the mock`, 'not_found');
    return r;
  };
  const emit = (kind: KnownEventKind, p: PaymentRecord, r?: RefundRecord) => {
    const order = core.state.orders.get(p.order_id)!;
    core.emit({ kind, partnerId: order.partner_id, resource: eventResource(p, order, r) });
  };
  const move = (id: string, from: string[], to: string, kind?: KnownEventKind) => {
    const p = payment(id);
    if (!from.includes(p.status)) {
      throw new MockControlError(`payment ${id} is ${p.status}; only ${from.join('/')} can become ${to}`);
    }
    p.status = to;
    p.updated_at = core.clock.iso();
    if (to === 'settled') p.settled_at = p.updated_at;
    touchOrder(core, p);
    if (kind) emit(kind, p);
  };
  const settleRefund = (id: string, to: 'approved' | 'failed', message: string | null) => {
    const r = refund(id);
    if (r.status !== 'pending') throw new MockControlError(`refund ${id} is ${r.status}, not pending`);
    r.status = to;
    r.processor_message = message;
    const p = payment(r.payment_id);
    if (to === 'approved') {
      const refunded = core.state
        .refundsOf(p.payment_id)
        .filter((x) => x.status === 'approved')
        .reduce((sum, x) => sum + x.amount_cents, 0);
      // api.md 9: a partial refund leaves the payment settled; the full amount makes it refunded.
      if (refunded >= p.amount_cents) p.status = 'refunded';
      p.updated_at = core.clock.iso();
      touchOrder(core, p);
      emit('payment.refunded', p, r);
      emit('payment.reversal_settled', p, r);
    } else {
      emit('payment.reversal_failed', p, r);
    }
  };
  return {
    approve: (id) => move(id, ['pending'], 'approved', 'payment.approved'),
    decline: (id) => move(id, ['pending'], 'declined'),
    fail: (id) => move(id, ['pending'], 'failed'),
    settle: (id) => move(id, ['approved'], 'settled'),
    cancel: (id) => move(id, ['pending'], 'cancelled', 'payment.cancelled'),
    expire: (id) => move(id, ['pending'], 'expired', 'payment.expired'),
    confirmRefund: (id) => settleRefund(id, 'approved', null),
    rejectRefund: (id, message = 'The processor rejected the reversal; manual intervention required') =>
      settleRefund(id, 'failed', message),
  };
}

function touchOrder(core: MockCore, p: PaymentRecord): void {
  const order = core.state.orders.get(p.order_id);
  if (order) order.updated_at = p.updated_at;
}
