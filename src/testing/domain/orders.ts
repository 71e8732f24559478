// The mock's orders (spec 4.1, 4.11): `createOrder()` and `useCheckout()`.
import { randomUUID } from 'node:crypto';
import type { OrderCreateParams } from '../../schemas/orders.js';
import { payableLocation } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import type { OrderRecord } from '../state.js';

// The order aggregate: creating an order (4.1) and using up its hosted checkout link (4.11). An
// order's status is derived from its payments (engine/order-status.ts), so payments move it on.

/**
 * Creates an open order at a payable location inside the partner's subtree (4.1). Throws the spec's
 * error when the location is outside the subtree or takes no payments.
 */
export function createOrder(
  core: MockCore,
  caller: { partnerId: string; clientId: string | null },
  params: OrderCreateParams,
): OrderRecord {
  const location = payableLocation(core.state, caller.partnerId, params.location_id);
  const now = core.clock.iso();
  const order: OrderRecord = {
    order_id: randomUUID(),
    // The order belongs to its location's partner: the caller, or a partner in the caller's subtree.
    partner_id: location.partner_id,
    location_id: params.location_id,
    total_cents: params.total_cents,
    description: params.description ?? null,
    external_reference: params.external_reference ?? null,
    external_source: params.external_source ?? null,
    external_id: params.external_id ?? null,
    customer_name: params.customer_name ?? null,
    customer_phone: params.customer_phone ?? null,
    customer_email: params.customer_email ?? null,
    department_id: params.department_id ?? null,
    metadata: params.metadata ?? null,
    level3: params.level3 ?? null,
    return_url: params.return_url ?? null,
    cancel_url: params.cancel_url ?? null,
    opened_by_m2m_client_id: caller.clientId,
    created_at: now,
    updated_at: now,
    paymentIds: [],
    checkoutUsed: false,
  };
  core.state.addOrder(order);
  core.onCreated('order', order.order_id);
  return order;
}

/** The hosted checkout link of the order was paid with: a second visit answers 410 (4.11). */
export function useCheckout(order: OrderRecord): void {
  order.checkoutUsed = true;
}
