// The `X-Service-Signature` header (spec 6.4): its name and form, the signing secrets accepted, the
// parsing and diagnosis of the header value, and the constant-time check on node:crypto.
import { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
import { hmacSha256 } from './hmac.js';
import { type NodeApis, nodeApis } from './runtime.js';

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

/** `node:crypto`, or a {@link PaymentsError} naming the asynchronous alternative. */
export function requireNode(what: string): NodeApis {
  const apis = nodeApis();
  if (apis) return apis;
  throw new PaymentsError(
    `${what} needs node:crypto, which this runtime does not have (Cloudflare Workers without nodejs_compat, ` +
      'Vercel Edge, a browser). Use verifyWebhookAsync or createWebhookHandler, which run on Web Crypto.',
  );
}

/** The hex HMAC-SHA256 of `body` keyed with `secret` (the secret's UTF-8 bytes are the key). */
export function hmacHex(body: string | Uint8Array, secret: string): string {
  return requireNode('Signing a webhook payload')
    .crypto.createHmac('sha256', secret)
    .update(body)
    .digest('hex');
}

function noSecret(cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'missing_secret',
    'No webhook signing secret was given (an empty string, an empty list, or an unset environment variable). ' +
      'Pass the signing secret shown once when the endpoint was registered.',
    { cause },
  );
}

/** The usable secrets, or `missing_secret` when none is a non-empty string. */
export function normalizeSecrets(secret: unknown): string[] {
  if (typeof secret === 'string' && secret.length > 0) return [secret];
  let usable: string[];
  try {
    const list: unknown[] = Array.isArray(secret) ? [...secret] : [secret];
    usable = list.filter((s): s is string => typeof s === 'string' && s.length > 0);
  } catch (cause) {
    throw noSecret(cause); // a list whose items or iterator throw
  }
  if (usable.length === 0) throw noSecret();
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

const malformed = (message: string, cause?: unknown) =>
  new WebhookVerificationError('malformed_signature', message, { cause });

function headerValue(header: unknown): unknown {
  if (!Array.isArray(header)) return header;
  if (header.length > 1) {
    throw malformed(
      `The request carries ${header.length} X-Service-Signature headers; the service sends exactly one.`,
    );
  }
  return header[0];
}

/**
 * The 64 lowercase hex digits of the header, checked for form and length before anything is decoded,
 * so that the comparison always has two 32-byte digests. Whatever the value (an array, a number, a
 * huge string, a proxy whose reads throw), the outcome is the digits or a {@link WebhookVerificationError}.
 */
export function parseSignatureHeader(header: unknown): string {
  let value: unknown;
  try {
    value = headerValue(header);
  } catch (err) {
    if (err instanceof WebhookVerificationError) throw err;
    throw malformed('The X-Service-Signature header value could not be read.', err);
  }
  if (value === undefined || value === null || value === '') {
    throw new WebhookVerificationError(
      'missing_signature',
      'The request has no X-Service-Signature header (or it is empty): it was not sent by the Partner Payments Service, ' +
        'or a proxy removed the header.',
    );
  }
  if (typeof value !== 'string') {
    throw malformed(`The X-Service-Signature header must be a string, not ${typeof value}.`);
  }
  // One pattern test on the common path; the detailed diagnosis only when it fails.
  if (!WELL_FORMED.test(value)) {
    throw malformed(describeMalformed(value) ?? 'The X-Service-Signature header is malformed.');
  }
  return value.slice(SIGNATURE_PREFIX.length);
}

/** The refusal of a well-formed signature that no secret produced. */
export function signatureMismatch(secretCount: number): WebhookVerificationError {
  const tried = secretCount === 1 ? 'the signing secret' : `any of the ${secretCount} signing secrets`;
  return new WebhookVerificationError(
    'signature_mismatch',
    `The X-Service-Signature does not match the body under ${tried}. Check that the secret belongs to this ` +
      'endpoint, and that the body is the exact bytes received: a body parsed and serialised again ' +
      '(JSON.stringify(req.body)) differs from what was signed.',
  );
}

/**
 * Whether `hex` is the HMAC of `body` under one of `secrets`, with node:crypto. Every secret is tried
 * (no early exit) and each comparison is `timingSafeEqual` of two 32-byte digests, so the time taken
 * reveals neither how much of the signature matched nor which secret did.
 */
export function matchesSync(body: string | Uint8Array, hex: string, secrets: readonly string[]): boolean {
  const apis = requireNode('verifyWebhook');
  const { crypto, buffer } = apis;
  // The header's 32 bytes, decoded into scratch space (this function is synchronous).
  expected ??= buffer.Buffer.alloc(DIGEST_BYTES);
  expected.write(hex, 'hex');
  let matched = false;
  for (const secret of secrets) {
    if (crypto.timingSafeEqual(hmacSha256(apis, body, secret), expected)) matched = true;
  }
  return matched;
}

/** An HMAC-SHA256 is 32 bytes (HEX_LENGTH / 2; a literal, so that an unused one is left out). */
const DIGEST_BYTES = 32;
let expected: Buffer | undefined;
