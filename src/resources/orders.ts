// The `client.orders` resource (spec 4.1, 4.2): creates an order with an Idempotency-Key kept across
// retries, and reads one with its payments.
import { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions } from '../core/types.js';
import type { NotedOrderSpec } from '../intents/requester.js';
import { OrderCreated, OrderCreateRequest } from '../schemas/compiled/orders.js';
import type * as T from '../schemas/orders.js';
import { ENDPOINTS, orderRead, requestOf } from './endpoints.js';
import { checkIds } from './ids.js';

/** Orders: the container of a payment transaction (spec 4.1, 4.2). */
export class Orders {
  constructor(private readonly client: Requester) {}

  /**
   * Creates an order at a location. Always sends an `Idempotency-Key` (yours from
   * `opts.idempotencyKey`, or a UUID generated once for this call) and the same key on every retry,
   * so a retry never creates a second order. With `return_url` and `cancel_url` the result carries
   * `hosted_checkout_url` (a secret: redirect to it, never log it) and `expires_at`.
   *
   * Only one of `return_url` and `cancel_url` is refused before sending: hosted checkout needs both.
   *
   * Errors: `RequestValidationError` (nothing sent); `BadRequestError` `invalid_request`,
   * `level3_tax_mismatch`, `level3_validation_failed`; `UnprocessableEntityError` `validation_error`;
   * `PermissionDeniedError` `location_out_of_scope`; `NotFoundError` `location_not_found`;
   * `ConflictError` `idempotency_conflict`.
   *
   * @example
   * const order = await client.orders.create({ location_id: locationId, total_cents: 12_500, external_reference: 'INV-1001' });
   */
  create(
    params: T.OrderCreateParams & { return_url: string; cancel_url: string },
    opts?: RequestOptions,
  ): APIPromise<T.OrderWithCheckout>;
  create(params: T.OrderCreateParams, opts?: RequestOptions): APIPromise<T.OrderCreated>;
  create(params: T.OrderCreateParams, opts?: RequestOptions): APIPromise<T.OrderCreated> {
    return APIPromise.run(() => {
      const body = validate(OrderCreateRequest, params, 'order');
      const spec = requestOf(ENDPOINTS.createOrder, OrderCreated, opts, undefined, body);
      // Under a caller's key, the intent layer notes the order (for handler.catchUp).
      if (opts?.idempotencyKey !== undefined) (spec as NotedOrderSpec<typeof OrderCreated>).noteOrder = true;
      return this.client.request(spec);
    });
  }

  /**
   * Reads an order with its payments.
   *
   * Errors: `NotFoundError` `order_not_found` (absent or outside your partner scope).
   *
   * @example
   * const order = await client.orders.get(orderId);
   * console.log(order.status, order.payments.map((p) => p.status));
   */
  get(orderId: string, opts?: RequestOptions): APIPromise<T.Order> {
    return APIPromise.run(() => {
      checkIds({ orderId });
      return this.client.request(orderRead(orderId, opts));
    });
  }
}
