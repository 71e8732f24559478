// The mock's payments (spec 3.1, 4.3 to 4.5): the allowed moves, creating, moving and voiding a
// payment, and emitting its events.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KnownEventKind } from '../../schemas/events.js';
import { payableLocation } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { deriveOrderStatus, remainingCents } from '../engine/order-status.js';
import { fail, MockApiError, MockControlError } from '../engine/respond.js';
import { eventResource } from '../engine/views.js';
import type { OrderRecord, PaymentRecord, RefundRecord } from '../state.js';

// The payment aggregate: every change of a payment's state happens here. The API routes (create,
// void), the hosted checkout page and the processor controls all call these functions, so a void
// through the API and an approval on the hosted page follow the same rules and emit the same events.

const CLOSED_ORDER = new Set(['voided', 'refunded', 'cancelled']);

/**
 * Where a payment may move, from which statuses, and the event it fires (spec 3.1; the design notes
 * for settled, declined and failed, which fire none).
 */
export const PAYMENT_MOVES = {
  approved: { from: ['pending'], event: 'payment.approved' },
  declined: { from: ['pending'], event: null },
  failed: { from: ['pending'], event: null },
  settled: { from: ['approved'], event: null },
  cancelled: { from: ['pending'], event: 'payment.cancelled' },
  expired: { from: ['pending'], event: 'payment.expired' },
  voided: { from: ['pending', 'approved'], event: 'payment.voided' },
} as const satisfies Record<string, { from: readonly string[]; event: KnownEventKind | null }>;

/** A status a payment can be moved to. */
export type PaymentMove = keyof typeof PAYMENT_MOVES;

/** The payment with this id; a {@link MockControlError} `not_found` without one. */
export function paymentById(core: MockCore, id: string): PaymentRecord {
  const p = core.state.payments.get(id);
  if (!p) throw new MockControlError(`no payment ${id} in the mock`, 'not_found');
  return p;
}

/** Whether the payment may move to `to` from its current status. */
export function canMove(p: PaymentRecord, to: PaymentMove): boolean {
  return (PAYMENT_MOVES[to].from as readonly string[]).includes(p.status);
}

/** Emits a payment event (with the refund for refund and reversal events) to the partner's endpoints. */
export function emitPaymentEvent(core: MockCore, kind: KnownEventKind, p: PaymentRecord, r?: RefundRecord) {
  const order = core.state.orders.get(p.order_id)!;
  core.emit({ kind, partnerId: order.partner_id, resource: eventResource(p, order, r) });
}

/** Marks a payment (and its order) changed now. */
export function touchPayment(core: MockCore, p: PaymentRecord): void {
  p.updated_at = core.clock.iso();
  const order = core.state.orders.get(p.order_id);
  if (order) order.updated_at = p.updated_at;
}

/**
 * Moves a payment to `to` and fires its event. Throws a {@link MockControlError} `conflict` (and
 * changes nothing) when the current status does not allow it.
 */
export function movePayment(core: MockCore, id: string, to: PaymentMove): PaymentRecord {
  const p = paymentById(core, id);
  const { from, event } = PAYMENT_MOVES[to];
  if (!canMove(p, to)) {
    throw new MockControlError(`payment ${id} is ${p.status}; only ${from.join('/')} can become ${to}`);
  }
  const wasPending = p.status === 'pending';
  p.status = to;
  if (wasPending) core.onLeftPending(p.payment_id);
  touchPayment(core, p);
  if (to === 'settled') p.settled_at = p.updated_at;
  if (to === 'voided') p.voided_at = p.updated_at;
  if (event) emitPaymentEvent(core, event, p);
  return p;
}

/**
 * Creates a pending payment after the order and location checks of 4.3 (the API route and the
 * hosted checkout page). Throws the spec's error for each refusal.
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

/**
 * Voids a payment as 4.5 says: pending or approved become voided (`payment.voided`); a voided one
 * stays as it is (a repeated void is idempotent); a settled or refunded one is refused with 409
 * `payment_already_settled`, any other with 422.
 */
export function voidPayment(core: MockCore, p: PaymentRecord): PaymentRecord {
  if (p.status === 'voided') return p;
  if (p.status === 'settled' || p.status === 'refunded') {
    throw fail.conflict('payment_already_settled', 'The payment is settled; issue a refund instead');
  }
  if (!canMove(p, 'voided')) throw fail.validation(`A ${p.status} payment cannot be voided`);
  return movePayment(core, p.payment_id, 'voided');
}
