// The zod schemas of refunds (spec 4.6, 4.7): the reason, the status, the create body, and the refund.
// The source of the types (src/schemas/refunds.ts), of the checks the client runs
// (src/schemas/compiled/refunds.ts), and of the mock's checks and documents.
import * as z from 'zod';
import { REFUND_REASONS, REFUND_STATUSES } from '../constants.js';
import { openEnum, positiveCents, timestamp } from './fields.js';

/** Why a refund is issued (the request accepts only these). */
export const RefundReason = z.enum(REFUND_REASONS, {
  error: `must be one of ${REFUND_REASONS.join(', ')}`,
});
/** A refund's status, open for values added later. */
export const RefundStatus = openEnum(REFUND_STATUSES);
/** The body of `POST .../payments/{payment_id}/refunds`. */
export const RefundCreateParams = z.strictObject({
  /** Integer cents, at most the payment's amount minus what is already refunded. */
  amount_cents: positiveCents,
  /** @default undefined (not sent) */
  reason: RefundReason.optional(),
});
/** A refund. */
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
