import { randomUUID } from 'node:crypto';
import type { MockCore } from '../core.js';
import { findOrder, findPayment } from '../lookup.js';
import { fail, json } from '../respond.js';
import type { RefundRecord } from '../state.js';
import { refundView } from '../views.js';
import type { Handlers } from './index.js';

/** 4.6 create refund and 4.7 get refund. */
export function refundRoutes(core: MockCore): Pick<Handlers, 'createRefund' | 'getRefund'> {
  return {
    createRefund(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const payment = findPayment(core.state, order, ctx.params.payment_id);
      const params = ctx.body();
      if (payment.status !== 'settled' && payment.status !== 'refunded') {
        throw fail.validation(refundRefusal(payment.status));
      }
      const settledAt = Date.parse(payment.settled_at ?? payment.updated_at);
      if (core.clock.now() - settledAt > core.options.refundWindowMs) {
        throw fail.conflict(
          'refund_window_expired',
          "The processor's refund window for this payment has passed",
        );
      }
      const taken = core.state
        .refundsOf(payment.payment_id)
        .filter((r) => r.status === 'pending' || r.status === 'approved')
        .reduce((sum, r) => sum + r.amount_cents, 0);
      const refundable = payment.amount_cents - taken;
      if (params.amount_cents > refundable) {
        throw fail.validation(
          `amount_cents ${params.amount_cents} exceeds the refundable remainder of ${refundable}`,
        );
      }
      const refund: RefundRecord = {
        refund_id: randomUUID(),
        payment_id: payment.payment_id,
        order_id: order.order_id,
        status: 'pending',
        amount_cents: params.amount_cents,
        reason: params.reason ?? null,
        created_at: core.clock.iso(),
        processor_message: null,
      };
      core.state.refunds.set(refund.refund_id, refund);
      core.onCreated('refund', refund.refund_id);
      return json(201, refundView(refund), ctx.requestId);
    },
    getRefund(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const payment = findPayment(core.state, order, ctx.params.payment_id);
      const refund = core.state.refunds.get(ctx.params.refund_id ?? '');
      if (!refund || refund.payment_id !== payment.payment_id)
        throw fail.notFound('refund_not_found', 'Refund');
      return json(200, refundView(refund), ctx.requestId);
    },
  };
}

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
