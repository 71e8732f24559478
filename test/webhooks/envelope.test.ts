/**
 * The hand-written envelope check of the light entry (src/webhooks/envelope.ts) against the zod event
 * schema (src/schemas/events.ts), over generated valid and invalid envelopes: they accept and refuse
 * exactly the same values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/schemas/events.js';
import { WebhookEventEnvelope } from '../../src/schemas/zod/events.js';
import { checkEnvelope } from '../../src/webhooks/envelope.js';

const uuidArb = fc.uuid();
const isoArb = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2999-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((d) =>
    fc.constantFrom(
      d.toISOString(),
      d.toISOString().replace(/\.\d+Z$/, 'Z'),
      d.toISOString().replace('Z', '+02:00'),
      d.toISOString().replace(/\.\d+Z$/, '.123456-05:30'),
    ),
  );

const resourceArb = fc.record(
  {
    payment_id: uuidArb,
    order_id: uuidArb,
    status: fc.oneof(fc.constantFrom('approved', 'refunded', 'voided'), fc.string({ maxLength: 10 })),
    amount_cents: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    method: fc.string({ maxLength: 8 }),
    external_reference: fc.option(fc.string({ maxLength: 20 }), { nil: null }),
    refund_id: uuidArb,
  },
  { requiredKeys: ['payment_id', 'order_id', 'status', 'amount_cents', 'method'] },
);

/** Envelopes the spec allows: every field right, unknown fields kept, kinds known or added later. */
const validArb = fc.record({
  v: fc.constant(1),
  event_id: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  event_kind: fc.oneof(fc.constantFrom(...EVENT_KINDS), fc.string({ maxLength: 20 })),
  occurred_at: isoArb,
  partner_id: uuidArb,
  resource: resourceArb,
  extra: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
});

/** Values that are wrong somewhere, and near misses of the right ones. */
const wrongValueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom(
    0,
    2,
    -1,
    1.5,
    '1',
    '',
    null,
    [],
    {},
    true,
    'not-a-uuid',
    '3f6c2a1e9b7d4c58a2e47d1f0c9b8e21',
    '{3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21}',
    '3F6C2A1E-9B7D-4C58-A2E4-7D1F0C9B8E21',
    'yesterday',
    '2026-05-12',
    '2026-05-12 10:15:30Z',
    '2026-05-12T10:15:30',
    '2026-13-01T00:00:00Z',
    '2026-05-12T24:00:00Z',
    '2026-05-12t10:15:30z',
    '2026-05-12T10:15:30.Z',
  ),
);

const TOP = ['v', 'event_id', 'event_kind', 'occurred_at', 'partner_id', 'resource'] as const;
const RESOURCE = [
  'payment_id',
  'order_id',
  'status',
  'amount_cents',
  'method',
  'external_reference',
] as const;

/** A valid envelope with one field replaced by a wrong value or removed, at the top or in `resource`. */
const mutatedArb = fc
  .tuple(validArb, fc.constantFrom(...TOP, ...RESOURCE), wrongValueArb, fc.boolean())
  .map(([envelope, key, value, remove]) => {
    const copy: Record<string, unknown> = { ...envelope, resource: { ...envelope.resource } };
    const target = (RESOURCE as readonly string[]).includes(key)
      ? (copy.resource as Record<string, unknown>)
      : copy;
    if (remove) delete target[key];
    else target[key] = value;
    return copy as unknown;
  });

/** Anything JSON.parse can give: valid envelopes, broken ones, and other JSON. */
const anyArb = fc.oneof(validArb, mutatedArb, mutatedArb, fc.jsonValue({ maxDepth: 3 }));

const zodAccepts = (value: unknown) => WebhookEventEnvelope.safeParse(value).success;

/** The property: the check and the schema agree, and an accepted value comes back whole. */
const agrees = (check: typeof checkEnvelope) =>
  fc.property(anyArb, (value) => {
    const ours = check(value);
    const theirs = WebhookEventEnvelope.safeParse(value);
    if (ours.ok !== theirs.success) return false;
    if (ours.ok && theirs.success) expect(ours.event).toEqual(theirs.data);
    return true;
  });

describe('the hand-written envelope check', () => {
  it('accepts and refuses exactly what the zod event schema does (fast-check)', () => {
    fc.assert(agrees(checkEnvelope), { numRuns: 3_000 });
  });

  it('is tested on both sides: the generators give valid and invalid envelopes alike', () => {
    const sample = fc.sample(anyArb, { numRuns: 2_000, seed: 7 });
    const valid = sample.filter(zodAccepts).length;
    expect(valid).toBeGreaterThan(300);
    expect(sample.length - valid).toBeGreaterThan(300);
  });

  it('the property can fail: a check that ignores the version, or the UUIDs, is caught', () => {
    const ignoresVersion: typeof checkEnvelope = (value) =>
      checkEnvelope(value && typeof value === 'object' ? { ...value, v: 1 } : value);
    const ignoresPartner: typeof checkEnvelope = (value) =>
      checkEnvelope(
        value && typeof value === 'object'
          ? { ...value, partner_id: '3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21' }
          : value,
      );
    expect(fc.check(agrees(ignoresVersion), { numRuns: 3_000, seed: 1 }).failed).toBe(true);
    expect(fc.check(agrees(ignoresPartner), { numRuns: 3_000, seed: 1 }).failed).toBe(true);
  });

  it('gives unsupported_version for an integer version other than 1, and invalid_payload otherwise', () => {
    fc.assert(
      fc.property(mutatedArb, (value) => {
        const result = checkEnvelope(value);
        const v = (value as { v?: unknown }).v;
        if (Number.isInteger(v) && v !== 1)
          expect(result).toMatchObject({ ok: false, reason: 'unsupported_version' });
        else if (!result.ok) expect(result.reason).toBe('invalid_payload');
      }),
      { numRuns: 1_000 },
    );
  });
});
