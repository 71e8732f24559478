import { uuid } from '../schemas/common.js';
import type { Caller } from './auth.js';
import { fail, MockApiError } from './respond.js';
import type { MockState, OrderRecord, PaymentRecord } from './state.js';

/** The caller's order, or 404 `order_not_found` (also for another partner's order: no leak). */
export function findOrder(state: MockState, caller: Caller, orderId: string | undefined): OrderRecord {
  const order = uuid.safeParse(orderId).success ? state.orders.get(orderId!) : undefined;
  if (!order || order.partner_id !== caller.partnerId) throw fail.notFound('order_not_found', 'Order');
  return order;
}

/** A payment of the order, or 404 `payment_not_found`. */
export function findPayment(
  state: MockState,
  order: OrderRecord,
  paymentId: string | undefined,
): PaymentRecord {
  const payment = paymentId ? state.payments.get(paymentId) : undefined;
  if (!payment || payment.order_id !== order.order_id) throw fail.notFound('payment_not_found', 'Payment');
  return payment;
}

/** A location named in a request body: 404 `location_not_found` when absent, 403 `location_out_of_scope` when another partner's. */
export function partnerLocation(state: MockState, partnerId: string, locationId: string) {
  const location = state.locations.get(locationId);
  if (!location) throw fail.notFound('location_not_found', 'Location');
  if (location.partner_id !== partnerId) {
    throw new MockApiError(403, 'location_out_of_scope', 'The location is outside your partner scope');
  }
  return location;
}

/**
 * A location the caller may take payments at: the checks of {@link partnerLocation}, then 422
 * `validation_error` when inactive or without the `payments` feature.
 */
export function payableLocation(state: MockState, partnerId: string, locationId: string) {
  const location = partnerLocation(state, partnerId, locationId);
  if (!location.active) throw fail.validation('The location is inactive and cannot take payments');
  if (!location.features.includes('payments')) {
    throw fail.validation('The location does not have the payments feature enabled');
  }
  return location;
}

/** A stable fingerprint of a JSON value (object keys sorted), to compare idempotent request bodies. */
export function fingerprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprint(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
