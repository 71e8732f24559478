// The parts of the event envelope (spec 6.2, 6.3) that need no zod: the kinds and the timestamp form.
// Both the zod schema (src/schemas/events.ts, the source of the types and the AsyncAPI document) and the
// hand-written check of the light webhooks entry (src/webhooks/envelope.ts) read them from here.

/**
 * Every event kind of the service (section 6.2). `payment.failed` is named by the service's text, not delivered.
 *
 * @example
 * const known = (EVENT_KINDS as readonly string[]).includes(event.event_kind);
 */
export const EVENT_KINDS = [
  'payment.approved',
  'payment.refunded',
  'payment.voided',
  'payment.cancelled',
  'payment.expired',
  'payment.reversal_settled',
  'payment.reversal_failed',
] as const;

/**
 * An event kind this SDK version knows.
 *
 * @example
 * const handled: KnownEventKind[] = ['payment.approved', 'payment.refunded'];
 */
export type KnownEventKind = (typeof EVENT_KINDS)[number];

/** The one envelope version this SDK reads (spec 6.3: `v` is 1). */
export const ENVELOPE_VERSION = 1;

/**
 * An ISO 8601 date and time with seconds and a zone: `2026-05-12T10:15:30Z`, optionally with a
 * fraction of a second (`.123`) or an offset (`+02:00`) instead of `Z`. The service writes UTC with
 * milliseconds (`Date#toISOString`).
 */
export const ISO_TIMESTAMP_PATTERN =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
/** The message of a malformed `occurred_at`. */
export const ISO_TIMESTAMP_MESSAGE = 'must be an ISO 8601 timestamp such as 2026-05-12T10:15:30Z';
