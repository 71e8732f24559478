// The zod schemas of webhook events (spec 6): the event kind, the payment and refund resources, and
// the envelope. The source of the types (src/schemas/events.ts), of the mock's events and of its
// AsyncAPI document; the webhooks entry checks the same rules by hand (src/webhooks/envelope.ts).
import * as z from 'zod';
import {
  ENVELOPE_VERSION,
  EVENT_KINDS,
  ISO_TIMESTAMP_MESSAGE,
  ISO_TIMESTAMP_PATTERN,
} from '../event-envelope.js';
import { openEnum, uuid } from './fields.js';
import { PaymentStatus } from './payments.js';

/** The `event_kind` of a delivery: a known kind, or one added after this SDK version. */
export const EventKind = openEnum(EVENT_KINDS);
/** The payment-shaped resource every event carries. */
export const EventResource = z.looseObject({
  payment_id: uuid,
  order_id: uuid,
  status: PaymentStatus,
  amount_cents: z.number(),
  method: z.string(),
  external_reference: z.string().nullable().optional(),
});
/** The resource of a refund event: the payment plus the refund the event is about. */
export const RefundEventResource = EventResource.extend({
  /** The refund this event is about. */
  refund_id: z.string(),
  /** The refund's status: `approved` (refunded, reversal settled) or `failed` (reversal failed). */
  refund_status: openEnum(['pending', 'approved', 'failed'] as const),
  /** The refunded amount in cents (part of the payment's amount for a partial refund). */
  refund_amount_cents: z.int(),
});
/**
 * The fields every event carries besides its kind (section 6.3). The light webhooks entry checks the
 * same rules by hand (src/webhooks/envelope.ts); a property test holds the two equal.
 */
const envelopeFields = {
  /** Envelope version: 1 (another version is refused with reason `unsupported_version`). */
  v: z.literal(ENVELOPE_VERSION),
  /** Stable across retries: de-duplicate on it. */
  event_id: z.string().min(1),
  occurred_at: z.string().regex(ISO_TIMESTAMP_PATTERN, { error: ISO_TIMESTAMP_MESSAGE }),
  partner_id: uuid,
  resource: EventResource,
};

/** The envelope of every webhook delivery (section 6.3). */
export const WebhookEventEnvelope = z.looseObject({ ...envelopeFields, event_kind: EventKind });

// Derived from a closed object on purpose: `Omit` over the loose envelope's index signature would
// collapse every field to `unknown`.
export const EventBase = z.object(envelopeFields);
