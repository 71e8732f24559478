// Refunds (spec 4.6, 4.7): the reasons and statuses; the types of the create body and the refund,
// inferred from src/schemas/zod/refunds.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/refunds.js';

export { REFUND_REASONS, REFUND_STATUSES } from './constants.js';

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
