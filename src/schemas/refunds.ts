// The zod schemas and types of refunds (spec 4.6, 4.7): the reasons, the statuses, the create body,
// and the refund.
import * as z from 'zod';
import { REFUND_REASONS, REFUND_STATUSES } from './constants.js';
import { openEnum, positiveCents, timestamp } from './fields.js';

export { REFUND_REASONS, REFUND_STATUSES };

/**
 * Why a refund is issued (the request accepts only these).
 *
 * @example
 * const reason: RefundReason = 'duplicate';
 */
export const RefundReason = z.enum(REFUND_REASONS, {
  error: `must be one of ${REFUND_REASONS.join(', ')}`,
});
export type RefundReason = z.infer<typeof RefundReason>;

/**
 * A refund's status, open for values added later.
 *
 * @example
 * const final = (status: RefundStatus) => status !== 'pending';
 */
export const RefundStatus = openEnum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatus>;

/**
 * The body of `POST .../payments/{payment_id}/refunds`.
 *
 * @example
 * const params: RefundCreateParams = { amount_cents: 2_500, reason: 'customer_request' };
 */
export const RefundCreateParams = z.strictObject({
  /** Integer cents, at most the payment's amount minus what is already refunded. */
  amount_cents: positiveCents,
  /** @default undefined (not sent) */
  reason: RefundReason.optional(),
});
export type RefundCreateParams = z.input<typeof RefundCreateParams>;

/**
 * A refund.
 *
 * @example
 * const refund: Refund = await client.refunds.create(orderId, paymentId, { amount_cents: 2_500 });
 * const done = await awaitRefundResult(client, orderId, paymentId, refund.refund_id);
 */
export const Refund = z.looseObject({
  refund_id: z.string(),
  payment_id: z.string(),
  order_id: z.string(),
  status: RefundStatus,
  amount_cents: z.number(),
  reason: openEnum(REFUND_REASONS).nullable().optional(),
  created_at: timestamp,
  /** Explains a processor rejection when `status` is `failed`. */
  processor_message: z.string().nullable().optional(),
});
export type Refund = z.infer<typeof Refund>;
