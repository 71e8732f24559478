import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, verifyWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';

// Signatures here come from node:crypto directly, not from the SDK's signer.
const sign = (body: Uint8Array | string, secret: string) =>
  `hmac-sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const secretArb = fc.string({ unit: 'binary', minLength: 1, maxLength: 80 });
const bodyArb = fc.uint8Array({ maxLength: 2048 });

const envelopeArb = fc.record({
  v: fc.constant(1),
  event_id: fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
  event_kind: fc.oneof(fc.constantFrom(...EVENT_KINDS), fc.string({ maxLength: 30 })),
  occurred_at: fc
    .date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2999-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  partner_id: fc.uuid(),
  resource: fc.record({
    payment_id: fc.uuid(),
    order_id: fc.uuid(),
    status: fc.string({ maxLength: 12 }),
    amount_cents: fc.integer({ min: 1, max: 10_000_000 }),
    method: fc.constant('card'),
    external_reference: fc.option(fc.string({ unit: 'binary', maxLength: 40 }), { nil: null }),
  }),
  extra: fc.jsonValue({ maxDepth: 2 }),
});
/** How the body is laid out: compact as the service sends it, or indented. */
const indentArb = fc.constantFrom(undefined, 0, 2, '\t');

const HEX_DIGIT = [...'0123456789abcdefABCDEFgz \t'];
const splice = (hex: string, i: number, c: string) => `hmac-sha256=${hex.slice(0, i)}${c}${hex.slice(i + 1)}`;

/**
 * Headers other than the correct one, as functions of it: free text, well-formed but wrong digests, and
 * near misses of the right one (a digit changed, dropped or upper-cased, a character added).
 */
const wrongHeaderArb: fc.Arbitrary<(correct: string) => string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 100 }).map((s) => () => s),
  fc.stringMatching(/^hmac-sha256=[0-9a-f]{64}$/).map((s) => () => s),
  fc.stringMatching(/^hmac-sha256=[0-9a-fA-F \t]{60,70}$/).map((s) => () => s),
  fc.integer({ min: 0, max: 63 }).map((i) => (h: string) => splice(h.slice(12), i, '')),
  fc.tuple(fc.integer({ min: 0, max: 63 }), fc.constantFrom(...HEX_DIGIT)).map(
    ([i, c]) =>
      (h: string) =>
        splice(h.slice(12), i, c),
  ),
  fc.integer({ min: 0, max: 63 }).map((i) => (h: string) => splice(h.slice(12), i, h[12 + i]!.toUpperCase())),
  fc.constantFrom<(h: string) => string>(
    () => '',
    (h) => h.slice(12),
    (h) => `${h}0`,
    (h) => ` ${h}`,
    (h) => h.toUpperCase(),
  ),
);

describe('signature properties (fast-check)', () => {
  it('a correct signature of any body under any secret passes the signature check', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, (body, secret) => {
        try {
          verifyWebhook(body, sign(body, secret), secret);
        } catch (err) {
          // Arbitrary bytes are rarely an envelope: only the payload check may refuse them.
          expect(err).toBeInstanceOf(WebhookVerificationError);
          expect((err as WebhookVerificationError).reason).toBe('invalid_payload');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a correctly signed envelope always verifies, whatever its layout and content', () => {
    fc.assert(
      fc.property(envelopeArb, indentArb, secretArb, (envelope, indent, secret) => {
        const body = JSON.stringify(envelope, null, indent);
        expect(verifyWebhook(body, sign(body, secret), secret)).toEqual(JSON.parse(body));
        expect(verifyWebhook(Buffer.from(body), sign(body, secret), secret)).toEqual(JSON.parse(body));
      }),
      { numRuns: 200 },
    );
  });

  it('with several secrets, a signature by any one of them verifies', () => {
    fc.assert(
      fc.property(
        envelopeArb,
        fc.uniqueArray(secretArb, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (envelope, secrets, pick) => {
          const body = JSON.stringify(envelope);
          const signer = secrets[pick % secrets.length]!;
          expect(verifyWebhook(body, sign(body, signer), secrets).event_id).toBe(envelope.event_id);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('any other header always throws WebhookVerificationError with a signature reason', () => {
    const body = JSON.stringify({
      v: 1,
      event_id: 'evt_prop',
      event_kind: 'payment.approved',
      occurred_at: '2026-05-12T10:00:00Z',
      partner_id: '3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21',
      resource: {
        payment_id: 'b3a1f2c4-5d6e-4f70-8a9b-0c1d2e3f4a5b',
        order_id: '9e8d7c6b-5a49-4382-b716-0f1e2d3c4b5a',
        status: 'approved',
        amount_cents: 1,
        method: 'card',
      },
    });
    fc.assert(
      fc.property(secretArb, wrongHeaderArb, (secret, makeHeader) => {
        const correct = sign(body, secret);
        const header = makeHeader(correct);
        fc.pre(header !== correct);
        let thrown: unknown;
        try {
          verifyWebhook(body, header, secret);
        } catch (err) {
          thrown = err;
        }
        expect(thrown).toBeInstanceOf(WebhookVerificationError);
        expect(['missing_signature', 'malformed_signature', 'signature_mismatch']).toContain(
          (thrown as WebhookVerificationError).reason,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a body changed in any way fails, signed correctly before the change', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, bodyArb, (body, secret, other) => {
        fc.pre(Buffer.compare(Buffer.from(body), Buffer.from(other)) !== 0);
        let reason: string | undefined;
        try {
          verifyWebhook(other, sign(body, secret), secret);
        } catch (err) {
          reason = (err as WebhookVerificationError).reason;
        }
        expect(reason).toBe('signature_mismatch');
      }),
      { numRuns: 200 },
    );
  });
});
