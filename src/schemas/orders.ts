// Orders (spec 4.1, 4.2): the statuses; the types of the create body, the creation response and the
// order with its payments, inferred from src/schemas/zod/orders.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/orders.js';

export { ORDER_STATUSES } from './constants.js';

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
