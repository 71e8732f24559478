import { randomBytes, randomUUID } from 'node:crypto';
import type { MockCore } from '../core.js';
import { findOrder, findPayment, payableLocation } from '../lookup.js';
import { deriveOrderStatus, remainingCents } from '../order-status.js';
import { fail, json, MockApiError } from '../respond.js';
import type { RouteContext } from '../router.js';
import type { OrderRecord, PaymentRecord } from '../state.js';
import { eventResource, paymentCreatedView, paymentView } from '../views.js';
import type { Handlers } from './index.js';

const CLOSED_ORDER = new Set(['voided', 'refunded', 'cancelled']);

/** 4.3 create payment, 4.4 get payment, 4.5 void payment. */
export function paymentRoutes(
  core: MockCore,
): Pick<Handlers, 'createPayment' | 'getPayment' | 'voidPayment'> {
  return {
    createPayment(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const params = ctx.body();
      const p = createPayment(core, order, params.amount_cents, params.level3 ?? order.level3);
      return json(201, paymentCreatedView(p), ctx.requestId);
    },
    getPayment(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      return json(200, paymentView(findPayment(core.state, order, ctx.params.payment_id)), ctx.requestId);
    },
    voidPayment: (ctx) => voidPayment(core, ctx),
  };
}

/**
 * Creates a pending payment after the order and location checks of 4.3 (also used by the hosted
 * checkout page). Throws the spec's error for each refusal.
 */
export function createPayment(
  core: MockCore,
  order: OrderRecord,
  amount: number,
  level3: unknown,
): PaymentRecord {
  const payments = core.state.paymentsOf(order);
  const status = deriveOrderStatus(order.total_cents, payments);
  if (CLOSED_ORDER.has(status)) throw fail.conflict('order_not_open', `The order is ${status}`);
  if (status === 'paid') throw fail.conflict('order_already_paid', 'The order is already fully paid');
  payableLocation(core.state, order.partner_id, order.location_id);
  const remaining = remainingCents(order.total_cents, payments);
  if (amount > remaining) {
    throw new MockApiError(
      400,
      'amount_exceeds_order_total',
      `amount_cents ${amount} exceeds the order's remaining unpaid total of ${remaining}`,
    );
  }
  const now = core.clock.iso();
  const payment: PaymentRecord = {
    payment_id: randomUUID(),
    order_id: order.order_id,
    status: 'pending',
    amount_cents: amount,
    method: 'card',
    processor_reference: `mockproc_${randomBytes(6).toString('hex')}`,
    created_at: now,
    updated_at: now,
    voided_at: null,
    settled_at: null,
    expiresAtMs: core.clock.now() + core.options.paymentTtlMs,
    level3,
  };
  core.state.payments.set(payment.payment_id, payment);
  order.paymentIds.push(payment.payment_id);
  order.updated_at = now;
  core.onCreated('payment', payment.payment_id);
  return payment;
}

function voidPayment(core: MockCore, ctx: RouteContext): Response {
  const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
  const p = findPayment(core.state, order, ctx.params.payment_id);
  if (p.status === 'pending' || p.status === 'approved') {
    p.status = 'voided';
    p.voided_at = core.clock.iso();
    p.updated_at = p.voided_at;
    order.updated_at = p.voided_at;
    core.emit({ kind: 'payment.voided', partnerId: order.partner_id, resource: eventResource(p, order) });
  } else if (p.status === 'settled' || p.status === 'refunded') {
    throw fail.conflict('payment_already_settled', 'The payment is settled; issue a refund instead');
  } else if (p.status !== 'voided') {
    throw fail.validation(`A ${p.status} payment cannot be voided`);
  }
  // Spec 1.6: a write answers 201, a repeated void too (api.md 9: void is idempotent).
  return json(201, { payment_id: p.payment_id, status: p.status, voided_at: p.voided_at }, ctx.requestId);
}
