// Payments (spec 4.3 to 4.5): the statuses; the types of the create body, the payment and the result
// of a void, inferred from src/schemas/zod/payments.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/payments.js';

export { PAYMENT_STATUSES } from './constants.js';

/**
 * A payment's status, open for values added later.
 *
 * @useDeclaredType
 * @example
 * const settledOrApproved = (status: PaymentStatus) => status === 'approved' || status === 'settled';
 */
export type PaymentStatus = z.infer<typeof Z.PaymentStatus>;

/**
 * The body of `POST /pos/v1/orders/{order_id}/payments`.
 *
 * @useDeclaredType
 * @example
 * const params: PaymentCreateParams = { method: 'card', amount_cents: 12_500 };
 */
export type PaymentCreateParams = z.input<typeof Z.PaymentCreateParams>;

/**
 * A payment (`POST .../payments` returns it pending; `GET .../payments/{id}` adds the read fields).
 *
 * @useDeclaredType
 * @example
 * const payment: Payment = await client.payments.get(orderId, paymentId);
 * if (payment.status === 'declined') notifyCustomer(payment.order_id);
 */
export type Payment = z.infer<typeof Z.Payment>;

/**
 * The response of `POST .../payments/{payment_id}/void`.
 *
 * @useDeclaredType
 * @example
 * const voided: VoidResult = await client.payments.void(orderId, paymentId);
 * console.log(voided.status, voided.voided_at);
 */
export type VoidResult = z.infer<typeof Z.VoidResult>;
