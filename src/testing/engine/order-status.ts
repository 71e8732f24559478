// How the mock derives an order's status and its paid and remaining amounts from its payments. The
// status is never stored: the views (views.ts) derive it for every order they answer, and the
// domain's checks and the pages read the same rule from here.
/** The fields of a payment the order status depends on. */
export interface PaymentLike {
  status: string;
  amount_cents: number;
}

const NOT_ATTEMPTS = new Set(['declined', 'failed']);
const CLOSED_TO_ORDER: Record<string, string> = {
  voided: 'voided',
  refunded: 'refunded',
  cancelled: 'cancelled',
  expired: 'cancelled',
};

/** Amount of the order already taken: approved and settled payments (refunds do not give it back). */
export function paidCents(payments: readonly PaymentLike[]): number {
  return payments
    .filter((p) => p.status === 'approved' || p.status === 'settled')
    .reduce((sum, p) => sum + p.amount_cents, 0);
}

/** Amount a new payment may still take: the total minus paid and pending payments. */
export function remainingCents(totalCents: number, payments: readonly PaymentLike[]): number {
  const pending = payments.filter((p) => p.status === 'pending').reduce((sum, p) => sum + p.amount_cents, 0);
  return totalCents - paidCents(payments) - pending;
}

/**
 * Derives an order's status from its payments: `pending` while a payment is
 * pending; `paid` when approved and settled payments reach the total; `partially_paid` below it;
 * `voided` / `refunded` / `cancelled` when every attempt ended that way (declined and failed
 * attempts do not count: the customer may retry); `open` otherwise.
 */
export function deriveOrderStatus(totalCents: number, payments: readonly PaymentLike[]): string {
  const attempts = payments.filter((p) => !NOT_ATTEMPTS.has(p.status));
  if (attempts.some((p) => p.status === 'pending')) return 'pending';
  const paid = paidCents(attempts);
  if (paid >= totalCents && paid > 0) return 'paid';
  if (paid > 0) return 'partially_paid';
  if (attempts.length === 0) return 'open';
  const closed = attempts.map((p) => CLOSED_TO_ORDER[p.status]);
  // Mixed endings (one voided, one refunded) report the latest attempt's.
  if (closed.every((s) => s !== undefined)) return closed[closed.length - 1]!;
  return 'open';
}
