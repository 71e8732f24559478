// The parts of the event envelope (spec 6.2, 6.3) that need no zod: the kinds and the timestamp form.
// Both the zod schema (src/schemas/events.ts, the source of the types and the AsyncAPI document) and the
// hand-written check of the light webhooks entry (src/webhooks/envelope.ts) read them from here.
// This is the one list of the event kinds in the SDK: the types, the zod and compiled schemas, the
// webhooks entry, the mock and its bin read it (the verifier's contract, src/cli/partner/verify/,
// keeps its own copy on purpose: it is written from the spec, to catch the SDK drifting from it).

/**
 * Every event kind of the service (section 6.2). `payment.failed` is named by the service's text, not delivered.
 *
 * @example
 * const known = (EVENT_KINDS as readonly string[]).includes(event.event_kind);
 */
export const EVENT_KINDS = [
  // The processor approved the payment (a card payment, or one paid on the hosted checkout page).
  'payment.approved',
  // The processor confirmed a refund of the payment (whole or part).
  'payment.refunded',
  // The payment was voided before it settled, so the card is not charged.
  'payment.voided',
  // A pending payment was cancelled by an operator.
  'payment.cancelled',
  // A pending payment's time to live ran out before it had a result.
  'payment.expired',
  // A reversal (the refund of a settled charge) was confirmed; sent beside `payment.refunded`.
  'payment.reversal_settled',
  // The processor rejected a reversal: the refund failed, and a person must look at it.
  'payment.reversal_failed',
] as const;

/**
 * An event kind this SDK version knows.
 *
 * @example
 * const handled: KnownEventKind[] = ['payment.approved', 'payment.refunded'];
 */
export type KnownEventKind = (typeof EVENT_KINDS)[number];

/**
 * The event kinds about a refund: their resource is the payment plus the refund it is about.
 *
 * @example
 * const isRefundEvent = (REFUND_EVENT_KINDS as readonly string[]).includes(event.event_kind);
 */
export const REFUND_EVENT_KINDS = [
  'payment.refunded',
  'payment.reversal_settled',
  'payment.reversal_failed',
] as const satisfies readonly KnownEventKind[];
/**
 * An event kind whose resource is a refund: `payment.refunded`, `payment.reversal_settled` or
 * `payment.reversal_failed`.
 *
 * @example
 * const kind: RefundEventKind = 'payment.reversal_failed';
 */
export type RefundEventKind = (typeof REFUND_EVENT_KINDS)[number];

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
