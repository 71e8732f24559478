// The zod schemas of payments (spec 4.3 to 4.5): the status, the create body, the payment, and the
// result of a void. The source of the types (src/schemas/payments.ts), of the checks the client runs
// (src/schemas/compiled/payments.ts), and of the mock's checks and documents.
import * as z from 'zod';
import { PAYMENT_STATUSES } from '../constants.js';
import { openEnum, positiveCents, timestamp } from './fields.js';
import { Level3 } from './level3.js';

/** A payment's status, open for values added later. */
export const PaymentStatus = openEnum(PAYMENT_STATUSES);
/** The body of `POST /pos/v1/orders/{order_id}/payments`. */
export const PaymentCreateParams = z.strictObject({
  /** `card` is the only method of this flow. */
  method: z.literal('card', { error: "must be 'card'" }),
  /** Integer cents, at most the order's remaining unpaid total. */
  amount_cents: positiveCents,
  /** Level 3 data for this payment; takes precedence over the order's. @default undefined (the order's) */
  level3: Level3.optional(),
});
/** A payment (`POST .../payments` returns it pending; `GET .../payments/{id}` adds the read fields). */
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
/** The response of `POST .../payments/{payment_id}/void`. */
export const VoidResult = z.looseObject({
  payment_id: z.string(),
  status: PaymentStatus,
  voided_at: timestamp,
});
