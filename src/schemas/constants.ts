// The value lists of the service's enums and the other constants of the schemas, without zod (so
// that the main entry can export them without loading zod): statuses, refund reasons and event
// kinds, the default role.

/**
 * Order statuses of the service (section 3.2); open for values added later.
 *
 * @example
 * const known = (ORDER_STATUSES as readonly string[]).includes(order.status);
 */
export const ORDER_STATUSES = [
  'open',
  'pending',
  'paid',
  'partially_paid',
  'voided',
  'refunded',
  'cancelled',
] as const;
/**
 * Payment statuses of the service (section 3.1); open for values added later.
 *
 * @example
 * const known = (PAYMENT_STATUSES as readonly string[]).includes(payment.status);
 */
export const PAYMENT_STATUSES = [
  'pending',
  'approved',
  'settled',
  'declined',
  'failed',
  'voided',
  'refunded',
  'cancelled',
  'expired',
] as const;
/**
 * The reasons a refund request accepts.
 *
 * @example
 * const options = REFUND_REASONS.map((reason) => ({ value: reason, label: reason.replace('_', ' ') }));
 */
export const REFUND_REASONS = ['customer_request', 'duplicate', 'fraudulent', 'other'] as const;
/**
 * Refund statuses (section 3.3); open for values added later.
 *
 * @example
 * const known = (REFUND_STATUSES as readonly string[]).includes(refund.status);
 */
export const REFUND_STATUSES = ['pending', 'approved', 'failed'] as const;
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
] as const;
/**
 * An event kind whose resource is a refund: `payment.refunded`, `payment.reversal_settled` or
 * `payment.reversal_failed`.
 *
 * @example
 * const kind: RefundEventKind = 'payment.reversal_failed';
 */
export type RefundEventKind = (typeof REFUND_EVENT_KINDS)[number];

/**
 * The role given to a POS user on first provisioning when none is named.
 *
 * @example
 * const role = params.role_slug ?? DEFAULT_ROLE_SLUG; // 'location_cashier'
 */
export const DEFAULT_ROLE_SLUG = 'location_cashier';
