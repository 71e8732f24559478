// The zod schemas and types of payments (spec 4.3 to 4.5): the statuses, the create body, the
// payment, and the result of a void.
import * as z from 'zod';
import { PAYMENT_STATUSES } from './constants.js';
import { openEnum, positiveCents, timestamp } from './fields.js';
import { Level3 } from './level3.js';

export { PAYMENT_STATUSES };

/**
 * A payment's status, open for values added later.
 *
 * @example
 * const settledOrApproved = (status: PaymentStatus) => status === 'approved' || status === 'settled';
 */
export const PaymentStatus = openEnum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/**
 * The body of `POST /pos/v1/orders/{order_id}/payments`.
 *
 * @example
 * const params: PaymentCreateParams = { method: 'card', amount_cents: 12_500 };
 */
export const PaymentCreateParams = z.strictObject({
  /** `card` is the only method of this flow. */
  method: z.literal('card', { error: "must be 'card'" }),
  /** Integer cents, at most the order's remaining unpaid total. */
  amount_cents: positiveCents,
  /** Level 3 data for this payment; takes precedence over the order's. @default undefined (the order's) */
  level3: Level3.optional(),
});
export type PaymentCreateParams = z.input<typeof PaymentCreateParams>;

/**
 * A payment (`POST .../payments` returns it pending; `GET .../payments/{id}` adds the read fields).
 *
 * @example
 * const payment: Payment = await client.payments.get(orderId, paymentId);
 * if (payment.status === 'declined') notifyCustomer(payment.order_id);
 */
export const Payment = z.looseObject({
  payment_id: z.string(),
  order_id: z.string(),
  status: PaymentStatus,
  amount_cents: z.number(),
  method: z.string(),
  processor_reference: z.string().nullable().optional(),
  created_at: timestamp,
  updated_at: timestamp.optional(),
});
export type Payment = z.infer<typeof Payment>;

/**
 * The response of `POST .../payments/{payment_id}/void`.
 *
 * @example
 * const voided: VoidResult = await client.payments.void(orderId, paymentId);
 * console.log(voided.status, voided.voided_at);
 */
export const VoidResult = z.looseObject({
  payment_id: z.string(),
  status: PaymentStatus,
  voided_at: timestamp,
});
export type VoidResult = z.infer<typeof VoidResult>;
