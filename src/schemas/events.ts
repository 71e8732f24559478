// The zod schemas and types of webhook events (spec 6): the event kinds, the payment and refund
// resources they carry, the envelope, and the WebhookEvent union discriminated by `event_kind`.
import * as z from 'zod';
import type { Open } from './common.js';
import { REFUND_EVENT_KINDS, type RefundEventKind } from './constants.js';
import {
  ENVELOPE_VERSION,
  EVENT_KINDS,
  ISO_TIMESTAMP_MESSAGE,
  ISO_TIMESTAMP_PATTERN,
  type KnownEventKind,
} from './event-envelope.js';
import { openEnum, uuid } from './fields.js';
import { PaymentStatus } from './payments.js';

export type { KnownEventKind } from './event-envelope.js';
export { EVENT_KINDS } from './event-envelope.js';
export { REFUND_EVENT_KINDS, type RefundEventKind };

/**
 * The `event_kind` of a delivery: a known kind, or one added after this SDK version.
 *
 * @example
 * const kind: EventKind = event.event_kind;
 */
export const EventKind = openEnum(EVENT_KINDS);
export type EventKind = Open<KnownEventKind>;

/**
 * The payment-shaped resource every event carries.
 *
 * @example
 * const { order_id, status, amount_cents }: EventResource = event.resource;
 */
export const EventResource = z.looseObject({
  payment_id: uuid,
  order_id: uuid,
  status: PaymentStatus,
  amount_cents: z.number(),
  method: z.string(),
  external_reference: z.string().nullable().optional(),
});
export type EventResource = z.infer<typeof EventResource>;

/**
 * The resource of a refund event (`payment.refunded`, `payment.reversal_settled`,
 * `payment.reversal_failed`): the payment (its `status` after the refund: `refunded` once approved
 * refunds reach its amount, else still `settled`) plus the refund the event is about.
 *
 * @example
 * if (event.event_kind === 'payment.reversal_failed') {
 *   alertFinance(event.resource.refund_id, event.resource.refund_amount_cents);
 * }
 */
export const RefundEventResource = EventResource.extend({
  /** The refund this event is about. */
  refund_id: z.string(),
  /** The refund's status: `approved` (refunded, reversal settled) or `failed` (reversal failed). */
  refund_status: openEnum(['pending', 'approved', 'failed'] as const),
  /** The refunded amount in cents (part of the payment's amount for a partial refund). */
  refund_amount_cents: z.int(),
});
export type RefundEventResource = z.infer<typeof RefundEventResource>;

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
const EventBase = z.object(envelopeFields);
/** The fields every event has (section 6.3). @inline */
type EventBase = z.infer<typeof EventBase>;

/**
 * An event of one known kind.
 *
 * @example
 * function fulfil(event: WebhookEventOf<'payment.approved'>) {
 *   return shipOrder(event.resource.order_id);
 * }
 */
export type WebhookEventOf<K extends KnownEventKind> = K extends RefundEventKind
  ? Omit<EventBase, 'resource'> & { event_kind: K; resource: RefundEventResource }
  : EventBase & { event_kind: K };

/**
 * An event of a kind this SDK does not know yet: handle it or ignore it, but do not fail. Its kind is a
 * plain `string` (not `string & {}`) because TypeScript only narrows a union on `event_kind` when
 * every member's kind is a literal or a plain string.
 *
 * @example
 * function ignore(event: UnknownWebhookEvent) {
 *   console.info(`acknowledged ${event.event_kind} (unknown to this SDK version)`);
 * }
 */
export type UnknownWebhookEvent = EventBase & { event_kind: string };

/**
 * A verified webhook event: a union discriminated by `event_kind`, open for kinds added later. In a
 * branch on a known kind, `event.event_kind` is that literal and `event.resource` the payment.
 *
 * @example
 * switch (event.event_kind) {
 *   case 'payment.approved': fulfil(event.resource.order_id); break;
 *   case 'payment.refunded': markRefunded(event.resource.payment_id); break;
 *   default: break; // a kind added after this SDK version: acknowledge it
 * }
 */
export type WebhookEvent = { [K in KnownEventKind]: WebhookEventOf<K> }[KnownEventKind] | UnknownWebhookEvent;
