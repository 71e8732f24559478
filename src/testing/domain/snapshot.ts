// The mock's snapshot: MockSnapshot, every order, payment and refund with its current status and the
// mock clock, and `snapshot()`, which builds it.

import { deriveOrderStatus } from '../engine/order-status.js';
import { refundView } from '../engine/views.js';
import type { MockState } from '../state.js';

/**
 * What the mock holds right now, for a dashboard or a test's failure message: three flat lists,
 * oldest first, of every partner's orders (with their `payment_ids`), payments and refunds with
 * their current statuses, each record with its `partner_id`, and the mock clock.
 *
 * @example
 * const { payments } = mock.snapshot();
 * console.table(payments.map((p) => [p.payment_id, p.status]));
 */
export interface MockSnapshot {
  /** The mock clock, ISO 8601. */
  now: string;
  orders: {
    order_id: string;
    partner_id: string;
    location_id: string;
    status: string;
    total_cents: number;
    description: string | null;
    payment_ids: string[];
    created_at: string;
    updated_at: string;
  }[];
  payments: {
    payment_id: string;
    order_id: string;
    partner_id: string;
    status: string;
    amount_cents: number;
    created_at: string;
    updated_at: string;
    settled_at: string | null;
    voided_at: string | null;
    /** When a pending payment expires on the mock clock. */
    expires_at: string;
  }[];
  refunds: (ReturnType<typeof refundView> & { partner_id: string })[];
}

/** Builds a {@link MockSnapshot}, oldest records first. */
export function snapshot(state: MockState, now: string): MockSnapshot {
  const partnerOf = (orderId: string) => state.orders.get(orderId)?.partner_id ?? '';
  return {
    now,
    orders: [...state.orders.values()].map((o) => ({
      order_id: o.order_id,
      partner_id: o.partner_id,
      location_id: o.location_id,
      status: deriveOrderStatus(o.total_cents, state.paymentsOf(o)),
      total_cents: o.total_cents,
      description: o.description,
      payment_ids: [...o.paymentIds],
      created_at: o.created_at,
      updated_at: o.updated_at,
    })),
    payments: [...state.payments.values()].map((p) => ({
      payment_id: p.payment_id,
      order_id: p.order_id,
      partner_id: partnerOf(p.order_id),
      status: p.status,
      amount_cents: p.amount_cents,
      created_at: p.created_at,
      updated_at: p.updated_at,
      settled_at: p.settled_at,
      voided_at: p.voided_at,
      expires_at: new Date(p.expiresAtMs).toISOString(),
    })),
    refunds: [...state.refunds.values()].map((r) => ({
      ...refundView(r),
      partner_id: partnerOf(r.order_id),
    })),
  };
}
