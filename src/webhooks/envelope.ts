// The envelope check of the light webhooks entry: the rules of the zod event schema
// (src/schemas/events.ts), written by hand so that verifying a delivery loads no zod. The property
// test in test/webhooks/envelope.test.ts holds the two equal over generated valid and invalid envelopes.
import { issueLine } from '../internal/issues.js';
import { UUID_MESSAGE, UUID_PATTERN } from '../internal/uuid.js';
import { ENVELOPE_VERSION, ISO_TIMESTAMP_MESSAGE, ISO_TIMESTAMP_PATTERN } from '../schemas/event-envelope.js';
import type { WebhookEvent } from '../schemas/events.js';

/** What {@link checkEnvelope} found: the event, or why the value is not one. */
export type EnvelopeCheck =
  | { ok: true; event: WebhookEvent }
  | { ok: false; reason: 'invalid_payload' | 'unsupported_version'; problems: string[] };

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const matches = (value: unknown, pattern: RegExp) => isString(value) && pattern.test(value);

/** Problems of the payment-shaped resource, with paths under `resource`. */
function resourceProblems(resource: unknown, problems: string[]): void {
  const bad = (key: string, message: string) =>
    problems.push(issueLine({ path: key ? ['resource', key] : ['resource'], message }, '(body)'));
  if (!isObject(resource)) return void bad('', 'must be an object');
  if (!matches(resource.payment_id, UUID_PATTERN)) bad('payment_id', UUID_MESSAGE);
  if (!matches(resource.order_id, UUID_PATTERN)) bad('order_id', UUID_MESSAGE);
  if (!isString(resource.status)) bad('status', 'must be a string');
  if (typeof resource.amount_cents !== 'number' || !Number.isFinite(resource.amount_cents)) {
    bad('amount_cents', 'must be a number');
  }
  if (!isString(resource.method)) bad('method', 'must be a string');
  const reference = resource.external_reference;
  if (reference !== undefined && reference !== null && !isString(reference)) {
    bad('external_reference', 'must be a string or null');
  }
}

/**
 * Checks a parsed body against the envelope of spec 6.3: `v` is 1, a non-empty `event_id`, a string
 * `event_kind` (kinds added later pass), an ISO 8601 `occurred_at`, a UUID `partner_id` and the
 * payment-shaped `resource` with UUID ids. Unknown fields are kept. An integer `v` other than 1 is
 * `unsupported_version` whatever else the body holds: another version may be shaped differently.
 */
export function checkEnvelope(json: unknown): EnvelopeCheck {
  if (!isObject(json)) {
    return { ok: false, reason: 'invalid_payload', problems: ['(body): must be a JSON object'] };
  }
  const { v } = json;
  if (Number.isInteger(v) && v !== ENVELOPE_VERSION) {
    return { ok: false, reason: 'unsupported_version', problems: [`v: is ${v}; this SDK reads version 1`] };
  }
  const problems: string[] = [];
  if (v !== ENVELOPE_VERSION) problems.push('v: must be the integer 1');
  if (!isString(json.event_id) || json.event_id.length === 0) {
    problems.push('event_id: must be a non-empty string');
  }
  if (!isString(json.event_kind)) problems.push('event_kind: must be a string');
  if (!matches(json.occurred_at, ISO_TIMESTAMP_PATTERN))
    problems.push(`occurred_at: ${ISO_TIMESTAMP_MESSAGE}`);
  if (!matches(json.partner_id, UUID_PATTERN)) problems.push(`partner_id: ${UUID_MESSAGE}`);
  resourceProblems(json.resource, problems);
  if (problems.length > 0) return { ok: false, reason: 'invalid_payload', problems };
  // Every field of the union's members was checked; the kind stays open (the union's last member).
  return { ok: true, event: json as unknown as WebhookEvent };
}
