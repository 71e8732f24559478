import { redact } from '../internal/redact.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * The base of every error the SDK throws. Catch it to catch them all.
 *
 * @example
 * try {
 *   await client.payments.create(orderId, { method: 'card', amount_cents: 1000 });
 * } catch (err) {
 *   if (err instanceof PaymentsError && err.outcomeUnknown) await reconcile(orderId);
 *   else throw err;
 * }
 */
export class PaymentsError extends Error {
  override name = 'PaymentsError';
  /**
   * True when the request may or may not have taken effect on the service (a payment or refund
   * whose request was sent but whose answer was lost). Read the order before trying again.
   */
  outcomeUnknown = false;
  /**
   * The `Idempotency-Key` an order creation sent on every attempt. Pass it back as
   * `{ idempotencyKey }` to retry the same order without risking a second one.
   */
  idempotencyKey: string | undefined = undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    super(redact(message), options);
  }

  /** A plain object for logs: name, message and the error's own public fields; never a secret. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key === 'cause' || typeof value === 'function') continue;
      out[key] = value;
    }
    return out;
  }

  /** What `util.inspect` and `console.log` show: name, message and stack, never a secret. */
  [INSPECT](): string {
    return `${this.name}: ${this.message}${this.stack ? `\n${redact(this.stack.split('\n').slice(1).join('\n'))}` : ''}`;
  }

  /**
   * A type guard that also works across realms (a `vm` context, a worker) and duplicated copies of
   * the package, where `instanceof PaymentsError` is false.
   *
   * @example
   * if (PaymentsError.is(err) && err.outcomeUnknown) await reconcile(orderId);
   */
  static is(value: unknown): value is PaymentsError {
    if (value instanceof PaymentsError) return true;
    // `instanceof Error` fails for an error from another realm (a vm context, a worker); the tag does not.
    return (
      Object.prototype.toString.call(value) === '[object Error]' && 'outcomeUnknown' in (value as object)
    );
  }
}
