// PaymentsError, the base class of every error the SDK throws: messages redacted, a secret-free
// `toJSON()` and `inspect`, and `PaymentsError.is()`, which also works across realms and copies.
import { redact } from '../../internal/redact.js';

/** The key of the method `util.inspect` calls (PaymentsClient's and the errors'). */
export const INSPECT = Symbol.for('nodejs.util.inspect.custom');
// A tag every copy of the package shares (the symbol registry is shared across realms).
const BRAND = Symbol.for('partner-payments.error');

/**
 * The base of every error the SDK throws. Catch it to catch them all. Errors that ended a call to
 * the service are {@link CallError}s, which say whether the call may have taken effect.
 *
 * @example
 * try {
 *   await client.payments.create(orderId, { method: 'card', amount_cents: 1000 });
 * } catch (err) {
 *   if (err instanceof PaymentsError) console.error(err.name, err.message);
 *   throw err;
 * }
 */
export class PaymentsError extends Error {
  override name = 'PaymentsError';

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
   * if (PaymentsError.is(err)) console.error(err.name, err.message);
   */
  static is(value: unknown): value is PaymentsError {
    if (value instanceof PaymentsError) return true;
    // `instanceof Error` fails for an error from another realm (a vm context, a worker); the tag does not.
    // A copy without the tag (an older version of the package) is recognised by its `outcomeUnknown`.
    return (
      typeof value === 'object' &&
      value !== null &&
      ((value as { [BRAND]?: unknown })[BRAND] === true || 'outcomeUnknown' in value) &&
      Object.prototype.toString.call(value) === '[object Error]'
    );
  }
}

Object.defineProperty(PaymentsError.prototype, BRAND, { value: true });
