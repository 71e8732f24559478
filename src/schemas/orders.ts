// Orders (spec 4.1, 4.2): the statuses; the types of the create body, the creation response and the
// order with its payments, inferred from src/schemas/zod/orders.ts; and the checks the client runs,
// compiled from it (src/schemas/compiled/orders.ts), so that loading this module loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/orders.js';
import type * as Z from './zod/orders.js';

export { ORDER_STATUSES } from './constants.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const Order = compiled.Order;
/** @hidden */
export const OrderCreated = compiled.OrderCreated;
/** @hidden */
export const OrderCreateParams = compiled.OrderCreateParams;
/** @hidden */
export const OrderCreateRequest = compiled.OrderCreateRequest;
/** @hidden */
export const OrderPayment = compiled.OrderPayment;
/** @hidden */
export const OrderStatus = compiled.OrderStatus;

/**
 * An order's status, open for values added later.
 *
 * @useDeclaredType
 * @example
 * const done = (status: OrderStatus) => status === 'paid' || status === 'refunded';
 */
export type OrderStatus = z.infer<typeof Z.OrderStatus>;

/**
 * The body of `POST /pos/v1/orders`.
 *
 * @useDeclaredType
 * @example
 * const params: OrderCreateParams = { location_id: locationId, total_cents: 12_500, customer_email: 'ann@example.com' };
 */
export type OrderCreateParams = z.input<typeof Z.OrderCreateParams>;

/**
 * The response of `POST /pos/v1/orders`.
 *
 * @useDeclaredType
 * @example
 * const created: OrderCreated = await client.orders.create({ location_id: locationId, total_cents: 12_500 });
 */
export type OrderCreated = z.infer<typeof Z.OrderCreated>;

/**
 * An order created with `return_url` and `cancel_url`: the hosted checkout fields are present.
 *
 * @example
 * const order: OrderWithCheckout = await client.orders.create({ ...params, return_url: returnUrl, cancel_url: cancelUrl });
 * if (order.hosted_checkout_url) res.redirect(order.hosted_checkout_url); // a secret: never log it
 */
export type OrderWithCheckout = OrderCreated & { hosted_checkout_url: string | null; expires_at: string };

/**
 * A payment as listed inside an order.
 *
 * @useDeclaredType
 * @example
 * const approved: OrderPayment[] = order.payments.filter((p) => p.status === 'approved');
 */
export type OrderPayment = z.infer<typeof Z.OrderPayment>;

/**
 * The response of `GET /pos/v1/orders/{order_id}`.
 *
 * @useDeclaredType
 * @example
 * const order: Order = await client.orders.get(orderId);
 * if (order.status === 'paid') await fulfil(order.order_id);
 */
export type Order = z.infer<typeof Z.Order>;
