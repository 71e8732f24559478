// CallError, the base of errors that ended a call to the service: it carries `outcomeUnknown`,
// the order creation's `idempotencyKey` and how to reconcile.
import type { Reconciliation } from '../types.js';
import { PaymentsError } from './base-error.js';

/**
 * An error that ended a call to the service: an error response, a lost connection, a timeout, an
 * abort, an unreadable answer, a token that could not be had. Only these can say that the call may
 * have taken effect (`outcomeUnknown`) and carry an order creation's `idempotencyKey`; errors
 * raised before anything was sent (`RequestValidationError`, `ConfigurationError`) cannot.
 *
 * @example
 * try {
 *   await client.payments.create(orderId, { method: 'card', amount_cents: 1000 });
 * } catch (err) {
 *   if (err instanceof CallError && err.outcomeUnknown) await client.orders.get(orderId); // reconcile first
 *   else throw err;
 * }
 */
export class CallError extends PaymentsError {
  override name = 'CallError';
  /**
   * True when the request may or may not have taken effect on the service (a payment whose request
   * was sent but whose answer was lost). Learn the outcome (see `reconcile`) before trying again.
   */
  outcomeUnknown = false;
  /**
   * The key of the call: the `Idempotency-Key` an order creation sent on every attempt, or the
   * client-side key of a payment or refund. Pass it back as `{ idempotencyKey }` to retry the same
   * order, payment or refund without risking a second one.
   */
  idempotencyKey: string | undefined = undefined;
  /** How to learn whether a call with an unknown outcome took effect (set with `outcomeUnknown`). */
  reconcile: Reconciliation | undefined = undefined;
  /**
   * After a payment or refund's automatic reconciliation could not tell its outcome: the ids of the
   * resources that could be it (several payments matched), else undefined.
   */
  candidates: string[] | undefined = undefined;
  /** The id of the call that failed, as in its events (`request`, `end`). */
  callId: string | undefined = undefined;
}
