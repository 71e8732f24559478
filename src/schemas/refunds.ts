// Refunds (spec 4.6, 4.7): the reasons and statuses; the types of the create body and the refund,
// inferred from src/schemas/zod/refunds.ts; and the checks the client runs, compiled from it
// (src/schemas/compiled/refunds.ts), so that loading this module loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/refunds.js';
import type * as Z from './zod/refunds.js';

export { REFUND_REASONS, REFUND_STATUSES } from './constants.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const Refund = compiled.Refund;
/** @hidden */
export const RefundCreateParams = compiled.RefundCreateParams;
/** @hidden */
export const RefundReason = compiled.RefundReason;
/** @hidden */
export const RefundStatus = compiled.RefundStatus;

/**
 * Why a refund is issued (the request accepts only these).
 *
 * @useDeclaredType
 * @example
 * const reason: RefundReason = 'duplicate';
 */
export type RefundReason = z.infer<typeof Z.RefundReason>;

/**
 * A refund's status, open for values added later.
 *
 * @useDeclaredType
 * @example
 * const final = (status: RefundStatus) => status !== 'pending';
 */
export type RefundStatus = z.infer<typeof Z.RefundStatus>;

/**
 * The body of `POST .../payments/{payment_id}/refunds`.
 *
 * @useDeclaredType
 * @example
 * const params: RefundCreateParams = { amount_cents: 2_500, reason: 'customer_request' };
 */
export type RefundCreateParams = z.input<typeof Z.RefundCreateParams>;

/**
 * A refund.
 *
 * @useDeclaredType
 * @example
 * const refund: Refund = await client.refunds.create(orderId, paymentId, { amount_cents: 2_500 });
 * const done = await awaitRefundResult(client, orderId, paymentId, refund.refund_id);
 */
export type Refund = z.infer<typeof Z.Refund>;
