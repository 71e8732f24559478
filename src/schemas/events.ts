// Webhook events (spec 6): the event kinds, and the types of the resources they carry and of the
// WebhookEvent union discriminated by `event_kind`, inferred from src/schemas/zod/events.ts. The
// webhooks entry checks envelopes by hand (src/webhooks/envelope.ts): this module loads no zod.
import type { z } from 'zod';
import type { Open } from './common.js';
import type { KnownEventKind, RefundEventKind } from './event-envelope.js';
import type * as Z from './zod/events.js';

export type { KnownEventKind, RefundEventKind } from './event-envelope.js';
export { EVENT_KINDS, REFUND_EVENT_KINDS } from './event-envelope.js';

/**
 * The `event_kind` of a delivery: a known kind, or one added after this SDK version.
 *
 * @example
 * const kind: EventKind = event.event_kind;
 */
export type EventKind = Open<KnownEventKind>;

/**
 * The payment-shaped resource every event carries.
 *
 * @useDeclaredType
 * @example
 * const { order_id, status, amount_cents }: EventResource = event.resource;
 */
export type EventResource = z.infer<typeof Z.EventResource>;

/**
 * The resource of a refund event (`payment.refunded`, `payment.reversal_settled`,
 * `payment.reversal_failed`): the payment (its `status` after the refund: `refunded` once approved
 * refunds reach its amount, else still `settled`) plus the refund the event is about.
 *
 * @useDeclaredType
 * @example
 * if (event.event_kind === 'payment.reversal_failed') {
 *   alertFinance(event.resource.refund_id, event.resource.refund_amount_cents);
 * }
 */
export type RefundEventResource = z.infer<typeof Z.RefundEventResource>;

/**
 * The fields every event has (section 6.3). @inline
 * @useDeclaredType
 */
type EventBase = z.infer<typeof Z.EventBase>;

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
