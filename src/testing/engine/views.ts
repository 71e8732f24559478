// The mock's records as the API answers them: orders, payments, refunds, locations, and the
// payment-shaped resource of an event.

import type { LocationRecord, MockState, OrderRecord, PaymentRecord, RefundRecord } from '../state.js';
import { deriveOrderStatus } from './order-status.js';

/**
 * The order as `GET /pos/v1/orders/{id}` answers it: the fields spec 2.1 lists for a read, and no
 * more. `external_source`, `external_id` and `metadata` are stored but not read back, as the spec says.
 */
export function orderView(order: OrderRecord, state: MockState) {
  const payments = state.paymentsOf(order);
  return {
    order_id: order.order_id,
    location_id: order.location_id,
    status: deriveOrderStatus(order.total_cents, payments),
    total_cents: order.total_cents,
    description: order.description,
    external_reference: order.external_reference,
    customer_name: order.customer_name,
    payments: payments.map((p) => ({
      payment_id: p.payment_id,
      status: p.status,
      amount_cents: p.amount_cents,
      method: p.method,
      created_at: p.created_at,
    })),
    opened_by_m2m_client_id: order.opened_by_m2m_client_id,
    created_at: order.created_at,
    updated_at: order.updated_at,
  };
}

/** The fields every payment-shaped answer starts with. */
function paymentCore(p: PaymentRecord) {
  return {
    payment_id: p.payment_id,
    order_id: p.order_id,
    status: p.status,
    amount_cents: p.amount_cents,
    method: p.method,
  };
}

/** The payment as `POST .../payments` answers it (4.3). */
export function paymentCreatedView(p: PaymentRecord) {
  return { ...paymentCore(p), created_at: p.created_at };
}

/** The payment as `GET .../payments/{id}` answers it. */
export function paymentView(p: PaymentRecord) {
  return {
    ...paymentCore(p),
    processor_reference: p.processor_reference,
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export function refundView(r: RefundRecord) {
  return {
    refund_id: r.refund_id,
    payment_id: r.payment_id,
    order_id: r.order_id,
    status: r.status,
    amount_cents: r.amount_cents,
    reason: r.reason,
    created_at: r.created_at,
    processor_message: r.processor_message,
  };
}

/** A location as listed (without the get-one fields). */
export function locationSummary(l: LocationRecord) {
  return {
    location_id: l.location_id,
    name: l.name,
    address: l.address,
    timezone: l.timezone,
    currency: l.currency,
    active: l.active,
  };
}

export function locationView(l: LocationRecord) {
  return {
    ...locationSummary(l),
    organization_id: l.organization_id,
    features: [...l.features],
    created_at: l.created_at,
  };
}

/** The payment-shaped resource of an event (spec 6.3), with refund details on refund events. */
export function eventResource(p: PaymentRecord, order: OrderRecord, refund?: RefundRecord) {
  return {
    ...paymentCore(p),
    external_reference: order.external_reference,
    ...(refund
      ? {
          refund_id: refund.refund_id,
          refund_status: refund.status,
          refund_amount_cents: refund.amount_cents,
        }
      : {}),
  };
}
