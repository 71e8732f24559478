// The `client.payments` resource (spec 4.3 to 4.5): creates a card payment (retried only when
// provably not processed), reads one, and voids one.
import { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions } from '../core/types.js';
import { PaymentCreateParams, VoidResult } from '../schemas/compiled/payments.js';
import type * as T from '../schemas/payments.js';
import { ENDPOINTS, paymentCreation, paymentRead, requestOf } from './endpoints.js';
import { checkIds } from './ids.js';

/** Payments: charge attempts against an order (spec 4.3 to 4.5). */
export class Payments {
  constructor(private readonly client: Requester) {}

  /**
   * Starts a card payment against an order. The result is `pending`: processing is asynchronous
   * (await it with `client.awaitPaymentResult`, or handle the `payment.approved` webhook).
   *
   * Exactly once per `idempotencyKey` (docs/idempotency.md): the service has no idempotency for
   * payments, so the SDK keeps the key in the client's `intentStore`. The same key again returns
   * the same payment (the same key with other params throws `IdempotencyConflictError`, nothing
   * sent). The request is retried only when it provably was not processed; after a lost answer
   * the SDK reads the order and returns the payment the key created, or sends again when it
   * provably did not land (`reconcile: 'auto'`, the default). Only what the service's records cannot
   * tell ends in an error with `outcomeUnknown: true` (and `candidates` when several payments match).
   *
   * Errors: `RequestValidationError`; `BadRequestError` `amount_exceeds_order_total`,
   * `invalid_request`, Level 3 codes; `ConflictError` `order_already_paid`, `order_not_open`;
   * `NotFoundError` `order_not_found`; `UnprocessableEntityError` `validation_error`.
   *
   * The key is one of yours for this charge, made before the order: your invoice or cart id (a key
   * made from the order id protects nothing: a rerun that creates a new order makes a new key). A
   * call without `deadlineMs` (here or on the client) holds the key's lease for 60 s; with one, the
   * deadline covers the send, the retries and the read after a lost answer, and a call that cannot
   * tell by then ends with `outcomeUnknown: true`: call again with the same key.
   *
   * @example
   * const payment = await client.payments.create(
   *   order.order_id,
   *   { method: 'card', amount_cents: 12_500 },
   *   { idempotencyKey: `payment-${invoice.id}`, deadlineMs: 20_000 },
   * );
   */
  create(orderId: string, params: T.PaymentCreateParams, opts?: RequestOptions): APIPromise<T.Payment> {
    return APIPromise.run(() => {
      checkIds({ orderId });
      const body = validate(PaymentCreateParams, params, 'payment');
      const spec = paymentCreation(orderId, body, opts);
      return this.client.request(spec);
    });
  }

  /**
   * Reads a payment.
   *
   * Errors: `NotFoundError` `payment_not_found`, `order_not_found`.
   *
   * @example
   * const payment = await client.payments.get(orderId, paymentId);
   */
  get(orderId: string, paymentId: string, opts?: RequestOptions): APIPromise<T.Payment> {
    return APIPromise.run(() => {
      checkIds({ orderId, paymentId });
      return this.client.request(paymentRead(orderId, paymentId, opts));
    });
  }

  /**
   * Voids a payment before settlement (`pending` or `approved`). Voiding twice returns the same
   * result, so this call is retried freely. A settled payment cannot be voided: refund it.
   *
   * Errors: `ConflictError` `payment_already_settled`; `NotFoundError` `payment_not_found`.
   *
   * @example
   * const { status, voided_at } = await client.payments.void(orderId, paymentId);
   */
  void(orderId: string, paymentId: string, opts?: RequestOptions): APIPromise<T.VoidResult> {
    return APIPromise.run(() => {
      checkIds({ orderId, paymentId });
      return this.client.request(requestOf(ENDPOINTS.voidPayment, VoidResult, opts, [orderId, paymentId]));
    });
  }
}
