import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from '../core/errors.js';

/**
 * The name of the header every delivery carries (spec 6.4), lower-cased as Node.js presents it.
 *
 * @example
 * const event = verifyWebhook(rawBody, req.headers[SIGNATURE_HEADER], secret);
 */
export const SIGNATURE_HEADER = 'x-service-signature';

/** The scheme prefix of the header value. */
export const SIGNATURE_PREFIX = 'hmac-sha256=';

/** An HMAC-SHA256 is 32 bytes: 64 hexadecimal digits. */
const HEX_LENGTH = 64;

/** The one accepted form of the header value. */
const WELL_FORMED = /^hmac-sha256=[0-9a-f]{64}$/;

/**
 * The value of the signature header as frameworks hand it over: a string (Node.js, Express, Fastify),
 * an array (Node.js `IncomingHttpHeaders` typing), or nothing (`undefined` from Node.js, `null` from
 * `Headers.get()`).
 *
 * @example
 * const fromNode: SignatureHeaderValue = req.headers['x-service-signature'];
 * const fromFetch: SignatureHeaderValue = request.headers.get('x-service-signature');
 */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

/**
 * One or several signing secrets. Several are accepted during a rotation (new and old); `undefined`
 * entries are skipped so `[process.env.NEW, process.env.OLD]` works while one is unset.
 *
 * @example
 * const secret: WebhookSecret = [process.env.PAYMENTS_WEBHOOK_SECRET, process.env.PAYMENTS_WEBHOOK_SECRET_PREVIOUS];
 */
export type WebhookSecret = string | readonly (string | undefined)[];

/** The hex HMAC-SHA256 of `body` keyed with `secret` (the secret's UTF-8 bytes are the key). */
export function hmacHex(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The usable secrets, or `missing_secret` when none is a non-empty string. */
export function normalizeSecrets(secret: unknown): string[] {
  const list = Array.isArray(secret) ? secret : [secret];
  const usable = list.filter((s): s is string => typeof s === 'string' && s.length > 0);
  if (usable.length === 0) {
    throw new WebhookVerificationError(
      'missing_secret',
      'No webhook signing secret was given (an empty string, an empty list, or an unset environment variable). ' +
        'Pass the signing secret shown once when the endpoint was registered.',
    );
  }
  return usable;
}

/** Explains why a header value is not `hmac-sha256=` + 64 lowercase hex digits, or undefined when it is. */
export function describeMalformed(value: string): string | undefined {
  // Node.js trims header values, so whitespace means the value was built or copied by hand.
  if (/\s/.test(value)) return 'The X-Service-Signature header contains whitespace.';
  if (!value.startsWith(SIGNATURE_PREFIX)) {
    return `The X-Service-Signature header does not start with '${SIGNATURE_PREFIX}'.`;
  }
  const hex = value.slice(SIGNATURE_PREFIX.length);
  if (hex.length !== HEX_LENGTH) {
    return `The X-Service-Signature digest has ${hex.length} characters; ${HEX_LENGTH} lowercase hexadecimal digits are expected.`;
  }
  if (/[A-F]/.test(hex) && /^[0-9a-fA-F]+$/.test(hex)) {
    return 'The X-Service-Signature digest contains uppercase hexadecimal digits; the service sends lowercase.';
  }
  if (!/^[0-9a-f]+$/.test(hex)) return 'The X-Service-Signature digest contains non-hexadecimal characters.';
  return undefined;
}

/**
 * Reads the header into the 32 digest bytes it carries. Format and length are checked before any
 * decoding, so the later `timingSafeEqual` always compares two 32-byte buffers.
 */
export function parseSignatureHeader(header: SignatureHeaderValue): Buffer {
  let value: unknown = header;
  if (Array.isArray(header)) {
    if (header.length > 1) {
      throw new WebhookVerificationError(
        'malformed_signature',
        `The request carries ${header.length} X-Service-Signature headers; the service sends exactly one.`,
      );
    }
    value = header[0];
  }
  if (value === undefined || value === null || value === '') {
    throw new WebhookVerificationError(
      'missing_signature',
      'The request has no X-Service-Signature header (or it is empty): it was not sent by the Partner Payments Service, ' +
        'or a proxy removed the header.',
    );
  }
  if (typeof value !== 'string') {
    throw new WebhookVerificationError(
      'malformed_signature',
      `The X-Service-Signature header must be a string, not ${typeof value}.`,
    );
  }
  // One pattern test on the common path; the detailed diagnosis only when it fails.
  if (!WELL_FORMED.test(value)) {
    throw new WebhookVerificationError(
      'malformed_signature',
      describeMalformed(value) ?? 'The X-Service-Signature header is malformed.',
    );
  }
  return Buffer.from(value.slice(SIGNATURE_PREFIX.length), 'hex');
}

/**
 * Whether `expected` (32 bytes) is the HMAC of `body` under one of `secrets`. Every secret is tried
 * (no early exit) so the time taken does not reveal which one matched.
 */
function matchesAnySecret(body: Uint8Array, expected: Buffer, secrets: readonly string[]): boolean {
  let matched = false;
  for (const secret of secrets) {
    const actual = createHmac('sha256', secret).update(body).digest();
    // Both are 32 bytes by construction (parseSignatureHeader checked the length): never a throw here.
    if (timingSafeEqual(actual, expected)) matched = true;
  }
  return matched;
}

/**
 * Checks the signature of `body`, throwing a {@link WebhookVerificationError} with the reason when it
 * does not hold. The message never contains the secret or the signature.
 */
export function assertSignature(
  body: Uint8Array,
  header: SignatureHeaderValue,
  secrets: readonly string[],
): void {
  const expected = parseSignatureHeader(header);
  if (!matchesAnySecret(body, expected, secrets)) {
    const tried =
      secrets.length === 1 ? 'the signing secret' : `any of the ${secrets.length} signing secrets`;
    throw new WebhookVerificationError(
      'signature_mismatch',
      `The X-Service-Signature does not match the body under ${tried}. Check that the secret belongs to this ` +
        'endpoint, and that the body is the exact bytes received: a body parsed and serialised again ' +
        '(JSON.stringify(req.body)) differs from what was signed.',
    );
  }
}
