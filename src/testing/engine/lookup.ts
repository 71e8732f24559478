// The mock's lookups by id within the caller's partner subtree (404 outside it, no leak), the
// payable-location checks, and the fingerprint of idempotent request bodies.
import type { LocationRecord, MockState, OrderRecord, PaymentRecord } from '../state.js';
import { fail, MockApiError } from './respond.js';
import type { Caller } from './token-authority.js';

/**
 * A record inside the partner's subtree by path id, or 404 `code` (also for a record outside it:
 * no leak). Ids the mock holds are UUIDs, so any other id simply is not found.
 */
function ownRecord<T extends { partner_id: string }>(
  state: MockState,
  records: ReadonlyMap<string, T>,
  id: string | undefined,
  partnerId: string,
  code: string,
  what: string,
): T {
  const record = id === undefined ? undefined : records.get(id);
  if (!record || !state.inSubtree(partnerId, record.partner_id)) throw fail.notFound(code, what);
  return record;
}

/** The caller's order, or 404 `order_not_found`. */
export function findOrder(state: MockState, caller: Caller, orderId: string | undefined): OrderRecord {
  return ownRecord(state, state.orders, orderId, caller.partnerId, 'order_not_found', 'Order');
}

/** The caller's location by path id (4.9), or 404 `location_not_found`. */
export function findLocation(
  state: MockState,
  caller: Caller,
  locationId: string | undefined,
): LocationRecord {
  return ownRecord(state, state.locations, locationId, caller.partnerId, 'location_not_found', 'Location');
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

/**
 * A location named in a request body: 404 `location_not_found` when absent, 403
 * `location_out_of_scope` when outside the partner's subtree.
 */
export function partnerLocation(state: MockState, partnerId: string, locationId: string) {
  const location = state.locations.get(locationId);
  if (!location) throw fail.notFound('location_not_found', 'Location');
  if (!state.inSubtree(partnerId, location.partner_id)) {
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
