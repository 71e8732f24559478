// The last steps of verification, shared by verifyWebhook and verifyWebhookAsync: the verified bytes
// as JSON, the envelope of spec 6.3, and the optional age limit.
import { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
import type { WebhookEvent } from '../schemas/events.js';
import { checkEnvelope } from './envelope.js';
import { utf8Text } from './runtime.js';

/**
 * Options of {@link verifyWebhook} and {@link verifyWebhookAsync}.
 *
 * @example
 * const event = verifyWebhook(rawBody, signature, secret, { maxAgeMs: 24 * 60 * 60_000 });
 */
export interface VerifyWebhookOptions {
  /**
   * Refuse (reason `event_too_old`) an event whose signed `occurred_at` is more than this many
   * milliseconds before now: a captured delivery replayed later is then refused. Mind what is
   * legitimately late: the service retries a failed delivery for about 14.6 hours (1 min, 5 min,
   * 30 min, 2 h, 12 h), and a dead-lettered one can be replayed from the admin portal days later, with
   * its original `occurred_at`. A limit below about 15 hours refuses genuine retries; a limit at all
   * refuses dead-letter replays older than it. Leave it off unless replays are handled another way.
   * @default undefined (no limit)
   */
  maxAgeMs?: number;
}

/** The age limit of `options` in ms, undefined when off; a {@link PaymentsError} when it is not a duration. */
export function maxAgeOf(options: VerifyWebhookOptions | undefined): number | undefined {
  const maxAgeMs = options?.maxAgeMs;
  if (maxAgeMs === undefined) return undefined;
  if (typeof maxAgeMs !== 'number' || !(maxAgeMs >= 0) || maxAgeMs === Number.POSITIVE_INFINITY) {
    throw new PaymentsError('maxAgeMs must be a finite number of milliseconds (0 or more), or left out.');
  }
  return maxAgeMs;
}

const notJson = (cause: unknown) =>
  new WebhookVerificationError(
    'invalid_payload',
    'The webhook body is correctly signed but is not UTF-8 JSON.',
    {
      cause,
    },
  );

/**
 * The text of a body: a string as it is, bytes as strict UTF-8. Bytes that are not UTF-8 give the
 * refusal instead of throwing it, since it may only be thrown once the signature is known to match
 * (a forged body is `signature_mismatch`, whatever its bytes).
 */
export function bodyText(body: string | Uint8Array): string | WebhookVerificationError {
  if (typeof body === 'string') return body;
  try {
    return utf8Text(body);
  } catch (cause) {
    return notJson(cause);
  }
}

/** JSON of the verified body's text (from {@link bodyText}). */
function parseJson(text: string | WebhookVerificationError): unknown {
  if (typeof text !== 'string') throw text;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw notJson(cause);
  }
}

/** The event in a verified body's text (from {@link bodyText}), or the reason it is refused. */
export function parseEvent(
  text: string | WebhookVerificationError,
  maxAgeMs: number | undefined,
): WebhookEvent {
  const checked = checkEnvelope(parseJson(text));
  if (!checked.ok) {
    const what =
      checked.reason === 'unsupported_version'
        ? 'an envelope version this SDK does not read (upgrade partner-payments)'
        : 'not an event envelope';
    throw new WebhookVerificationError(
      checked.reason,
      `The webhook body is correctly signed but is ${what}:\n${checked.problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  const { event } = checked;
  if (maxAgeMs !== undefined) {
    const ageMs = Date.now() - Date.parse(event.occurred_at);
    if (!(ageMs <= maxAgeMs)) {
      throw new WebhookVerificationError(
        'event_too_old',
        `The event occurred ${Math.round(ageMs / 1000)} s ago, more than maxAgeMs (${maxAgeMs} ms) allows. ` +
          'A genuine retry or dead-letter replay can be this old; raise or drop maxAgeMs if you meant to accept it.',
      );
    }
  }
  return event;
}
