// Payments (spec 4.3 to 4.5): the statuses; the types of the create body, the payment and the result
// of a void, inferred from src/schemas/zod/payments.ts; and the checks the client runs, compiled from
// it (src/schemas/compiled/payments.ts), so that loading this module loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/payments.js';
import type * as Z from './zod/payments.js';

export { PAYMENT_STATUSES } from './constants.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const Payment = compiled.Payment;
/** @hidden */
export const PaymentCreateParams = compiled.PaymentCreateParams;
/** @hidden */
export const PaymentStatus = compiled.PaymentStatus;
/** @hidden */
export const VoidResult = compiled.VoidResult;

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
