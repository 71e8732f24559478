// Signing webhook payloads as the service does, for tests of a receiver: the signature header value,
// and `signWebhookPayload()` on node:crypto or `signWebhookPayloadAsync()` on Web Crypto.
import type { webcrypto } from 'node:crypto';
import { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
import { toBody } from './raw-body.js';
import { utf8Bytes } from './runtime.js';
import { hmacHex, normalizeSecrets, SIGNATURE_PREFIX } from './signature.js';

/**
 * A payload signed the way the service signs a delivery.
 *
 * @example
 * const signed: SignedWebhookPayload = signWebhookPayload(event, secret);
 * await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
 */
export interface SignedWebhookPayload {
  /** The body to send, byte for byte what the signature covers. */
  readonly body: string;
  /** The `X-Service-Signature` header value: `hmac-sha256=<64 lowercase hex digits>`. */
  readonly signature: string;
  /** The headers of a delivery, ready for `fetch(url, { method: 'POST', headers, body })`. */
  readonly headers: { readonly 'content-type': 'application/json'; readonly 'x-service-signature': string };
}

function singleSecret(secret: string): string {
  // normalizeSecrets throws `missing_secret` for an empty or absent secret, as verification does.
  const [first] = normalizeSecrets(typeof secret === 'string' ? secret : undefined);
  return first!;
}

/**
 * The `X-Service-Signature` header value for `body` under `secret`: `hmac-sha256=` followed by the
 * lowercase hex HMAC-SHA256 of the body's bytes (a string is signed as UTF-8).
 *
 * @example
 * const header = webhookSignatureHeader(rawBody, 'whsec_test');
 * // 'hmac-sha256=5d1f...'
 */
export function webhookSignatureHeader(body: string | Uint8Array, secret: string): string {
  return SIGNATURE_PREFIX + hmacHex(toBody(body), singleSecret(secret));
}

/**
 * Signs a payload exactly as the service signs a delivery, for your own tests of a webhook handler.
 * An object is serialised with `JSON.stringify` (compact, as the service sends it); a string is signed
 * as it is, so a test can also sign bodies that are not events.
 *
 * @example
 * import { signWebhookPayload } from 'partner-payments/webhooks';
 *
 * const { body, headers } = signWebhookPayload(
 *   {
 *     v: 1,
 *     event_id: 'evt_1',
 *     event_kind: 'payment.approved',
 *     occurred_at: '2026-05-12T10:00:00Z',
 *     partner_id: '0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
 *     resource: { payment_id, order_id, status: 'approved', amount_cents: 1000, method: 'card' },
 *   },
 *   'whsec_test',
 * );
 * const response = await fetch('http://127.0.0.1:3000/webhooks/payments', { method: 'POST', headers, body });
 */
export function signWebhookPayload(payload: string | object, secret: string): SignedWebhookPayload {
  const body = serialise(payload);
  return signed(body, webhookSignatureHeader(body, secret));
}

/**
 * Signs a payload exactly as {@link signWebhookPayload} does, on Web Crypto (`crypto.subtle`): for
 * tests that run where `node:crypto` is missing (Cloudflare Workers without `nodejs_compat`, Vercel
 * Edge, browsers). The same body, signature and headers; rejects with the same errors.
 *
 * @example
 * import { signWebhookPayloadAsync } from 'partner-payments/webhooks';
 *
 * const { body, headers } = await signWebhookPayloadAsync(event, 'whsec_test');
 * const response = await worker.fetch(new Request('https://example.com/webhooks', { method: 'POST', headers, body }));
 */
export async function signWebhookPayloadAsync(
  payload: string | object,
  secret: string,
): Promise<SignedWebhookPayload> {
  const body = serialise(payload);
  const key = singleSecret(secret);
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (!subtle) {
    throw new PaymentsError(
      'signWebhookPayloadAsync needs Web Crypto (globalThis.crypto.subtle), which this runtime does not have.',
    );
  }
  const hmacKey = await subtle.importKey('raw', utf8Bytes(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const digest = new Uint8Array(await subtle.sign('HMAC', hmacKey, utf8Bytes(body)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return signed(body, SIGNATURE_PREFIX + hex);
}

type SubtleCrypto = webcrypto.SubtleCrypto;

function serialise(payload: string | object): string {
  let body: string | undefined;
  try {
    body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  } catch (cause) {
    throw notSerialisable(cause); // a BigInt or a cycle
  }
  if (typeof body !== 'string') throw notSerialisable(undefined); // a function or a symbol
  return body;
}

function signed(body: string, signature: string): SignedWebhookPayload {
  return {
    body,
    signature,
    headers: { 'content-type': 'application/json', 'x-service-signature': signature },
  };
}

function notSerialisable(cause: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_payload',
    'The payload to sign cannot be serialised as JSON.',
    {
      cause,
    },
  );
}
