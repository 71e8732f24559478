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

/** The last `partner_id` that passed: a receiver hears from one partner, so most checks end here. */
let knownPartner = '';
function isPartnerId(value: unknown): boolean {
  if (value === knownPartner && value !== '') return true;
  if (!matches(value, UUID_PATTERN)) return false;
  knownPartner = value as string;
  return true;
}

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
 * Whether `json` is an envelope: every rule of {@link checkEnvelope} in one expression, for the common
 * case (a valid delivery) without the closures and lists the diagnosis needs.
 */
function isEnvelope(json: unknown): boolean {
  if (!isObject(json) || !isObject(json.resource)) return false;
  const { event_id, resource } = json;
  const reference = resource.external_reference;
  return (
    json.v === ENVELOPE_VERSION &&
    isString(event_id) &&
    event_id.length > 0 &&
    isString(json.event_kind) &&
    matches(json.occurred_at, ISO_TIMESTAMP_PATTERN) &&
    isPartnerId(json.partner_id) &&
    matches(resource.payment_id, UUID_PATTERN) &&
    matches(resource.order_id, UUID_PATTERN) &&
    isString(resource.status) &&
    typeof resource.amount_cents === 'number' &&
    Number.isFinite(resource.amount_cents) &&
    isString(resource.method) &&
    (reference === undefined || reference === null || isString(reference))
  );
}

/** Every reason `json` is not an envelope (empty when it is one). */
function problemsOf(json: Fields): string[] {
  const problems: string[] = [];
  if (json.v !== ENVELOPE_VERSION) problems.push('v: must be the integer 1');
  if (!isString(json.event_id) || json.event_id.length === 0) {
    problems.push('event_id: must be a non-empty string');
  }
  if (!isString(json.event_kind)) problems.push('event_kind: must be a string');
  if (!matches(json.occurred_at, ISO_TIMESTAMP_PATTERN))
    problems.push(`occurred_at: ${ISO_TIMESTAMP_MESSAGE}`);
  if (!isPartnerId(json.partner_id)) problems.push(`partner_id: ${UUID_MESSAGE}`);
  resourceProblems(json.resource, problems);
  return problems;
}

/**
 * Checks a parsed body against the envelope of spec 6.3: `v` is 1, a non-empty `event_id`, a string
 * `event_kind` (kinds added later pass), an ISO 8601 `occurred_at`, a UUID `partner_id` and the
 * payment-shaped `resource` with UUID ids. Unknown fields are kept. An integer `v` other than 1 is
 * `unsupported_version` whatever else the body holds: another version may be shaped differently.
 */
export function checkEnvelope(json: unknown): EnvelopeCheck {
  // Every field of the union's members is checked; the kind stays open (the union's last member).
  if (isEnvelope(json)) return { ok: true, event: json as WebhookEvent };
  if (!isObject(json)) {
    return { ok: false, reason: 'invalid_payload', problems: ['(body): must be a JSON object'] };
  }
  const { v } = json;
  if (Number.isInteger(v) && v !== ENVELOPE_VERSION) {
    return { ok: false, reason: 'unsupported_version', problems: [`v: is ${v}; this SDK reads version 1`] };
  }
  const problems = problemsOf(json);
  // The two lists of rules above say the same; should they ever part, the stricter one decides.
  if (problems.length === 0) problems.push('(body): not an event envelope');
  return { ok: false, reason: 'invalid_payload', problems };
}
