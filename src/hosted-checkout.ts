// Confirming a customer's return from the hosted checkout page: `confirmHostedCheckoutReturn()`
// reads the order through the API rather than trusting the return URL's `status`.

import { RequestValidationError } from './core/errors/api-errors.js';
import type { RequestOptions } from './core/types.js';
import { uuid } from './schemas/compiled/fields.js';
import type { Order } from './schemas/orders.js';

/**
 * What a browser's return from the hosted checkout page really means, read from the API.
 *
 * @example
 * const { paid, order }: HostedCheckoutReturn = await confirmHostedCheckoutReturn(client, req.originalUrl);
 * if (paid) await fulfil(order.order_id);
 */
export interface HostedCheckoutReturn {
  orderId: string;
  /** The status the return URL claimed (`paid`), which proves nothing on its own. */
  claimedStatus: string | undefined;
  /** True only when the order, read through the API, is `paid`. */
  paid: boolean;
  /** The order as the service has it now. */
  order: Order;
}

/**
 * Options of {@link confirmHostedCheckoutReturn}.
 *
 * @example
 * const options: ConfirmReturnOptions = { expectedOrderId: req.session.orderId, timeoutMs: 5_000 };
 * const result = await confirmHostedCheckoutReturn(client, req.originalUrl, options);
 */
export interface ConfirmReturnOptions extends RequestOptions {
  /**
   * The order id you stored for this customer's session. The return URL comes from the browser, so
   * without it a customer could present another (paid) order's return URL.
   * @default undefined (any order id in the URL is accepted)
   */
  expectedOrderId?: string;
}

/**
 * Confirms a customer's return from the hosted checkout page. The browser arrives at
 * `return_url?order_id=...&status=paid`, but anyone can type that URL: this reads the order through
 * the API and reports `paid` only when the service says so.
 *
 * Throws {@link RequestValidationError} when the URL carries no valid `order_id`, or another order
 * than `expectedOrderId`.
 *
 * @example
 * app.get('/checkout/return', async (req, res) => {
 *   const result = await confirmHostedCheckoutReturn(client, req.originalUrl, { expectedOrderId: req.session.orderId });
 *   res.send(result.paid ? 'Thank you!' : 'Payment not completed yet.');
 * });
 */
export async function confirmHostedCheckoutReturn(
  client: { orders: { get(orderId: string, opts?: RequestOptions): Promise<Order> } },
  returnUrl: string | URL,
  options: ConfirmReturnOptions = {},
): Promise<HostedCheckoutReturn> {
  const { expectedOrderId, ...requestOptions } = options;
  // URL.parse (not new URL) so that a malformed URL from the browser is the typed error below.
  const url = typeof returnUrl === 'string' ? URL.parse(returnUrl, 'http://return.invalid') : returnUrl;
  const orderId = url?.searchParams.get('order_id') ?? '';
  if (!uuid.safeParse(orderId).success) {
    throw new RequestValidationError('hosted checkout return URL', [
      { path: ['order_id'], message: 'the return URL carries no valid order_id' },
    ]);
  }
  if (expectedOrderId !== undefined && orderId !== expectedOrderId) {
    throw new RequestValidationError('hosted checkout return URL', [
      {
        path: ['order_id'],
        message: `the return URL names order ${orderId}, not this session's order ${expectedOrderId}`,
      },
    ]);
  }
  const order = await client.orders.get(orderId, requestOptions);
  return {
    orderId,
    claimedStatus: url?.searchParams.get('status') ?? undefined,
    paid: order.status === 'paid',
    order,
  };
}
