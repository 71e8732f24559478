// The `client.refunds` resource (spec 4.6, 4.7): refunds all or part of a settled payment, and reads
// a refund.
import { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions } from '../core/types.js';
import { RefundCreateParams } from '../schemas/compiled/refunds.js';
import type * as T from '../schemas/refunds.js';
import { refundCreation, refundRead } from './endpoints.js';
import { checkIds } from './ids.js';

/** Refunds of settled payments (spec 4.6, 4.7). */
export class Refunds {
  constructor(private readonly client: Requester) {}

  /**
   * Refunds all or part of a settled payment. The refund starts `pending`; the processor confirms it
   * asynchronously (`payment.refunded` webhook, or `client.awaitRefundResult`).
   *
   * Exactly once per `idempotencyKey`, kept client-side like a payment's (docs/idempotency.md). The
   * service lists no refunds of a payment, so a lost answer is settled only by a `payment.refunded`
   * event recorded through `createWebhookHandler({ intentStore })`; until then the error has
   * `outcomeUnknown: true` and a rerun with the same key never sends a second refund.
   *
   * Errors: `RequestValidationError`; `UnprocessableEntityError` `validation_error` (above the
   * refundable remainder); `ConflictError` `refund_window_expired`; `NotFoundError` `payment_not_found`.
   *
   * @example
   * const refund = await client.refunds.create(
   *   orderId,
   *   paymentId,
   *   { amount_cents: 2_500, reason: 'customer_request' },
   *   { idempotencyKey: `refund-${paymentId}-1` },
   * );
   */
  create(
    orderId: string,
    paymentId: string,
    params: T.RefundCreateParams,
    opts?: RequestOptions,
  ): APIPromise<T.Refund> {
    return APIPromise.run(() => {
      checkIds({ orderId, paymentId });
      const body = validate(RefundCreateParams, params, 'refund');
      const spec = refundCreation(orderId, paymentId, body, opts);
      return this.client.request(spec);
    });
  }

  /**
   * Reads a refund.
   *
   * Errors: `NotFoundError` `payment_not_found` (and not found for an unknown refund).
   *
   * @example
   * const refund = await client.refunds.get(orderId, paymentId, refundId);
   * if (refund.status === 'failed') console.warn(refund.processor_message);
   */
  get(orderId: string, paymentId: string, refundId: string, opts?: RequestOptions): APIPromise<T.Refund> {
    return APIPromise.run(() => {
      checkIds({ orderId, paymentId, refundId });
      return this.client.request(refundRead(orderId, paymentId, refundId, opts));
    });
  }
}
