import { isUtf8 } from 'node:buffer';
import { WebhookVerificationError } from '../core/errors.js';
import { issueLine } from '../internal/issues.js';
import { type WebhookEvent, WebhookEventEnvelope } from '../schemas/events.js';
import { toBodyBytes, type WebhookRawBody } from './raw-body.js';
import {
  assertSignature,
  normalizeSecrets,
  SIGNATURE_HEADER,
  type SignatureHeaderValue,
  type WebhookSecret,
} from './signature.js';

/** Parses verified bytes as the event envelope of spec 6.3, or throws `invalid_payload`. */
function parseEvent(body: Uint8Array): WebhookEvent {
  let json: unknown;
  try {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (!isUtf8(bytes)) throw new TypeError('not UTF-8');
    json = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new WebhookVerificationError(
      'invalid_payload',
      'The webhook body is correctly signed but is not UTF-8 JSON.',
      { cause },
    );
  }
  const result = WebhookEventEnvelope.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `  - ${issueLine(i, '(body)')}`);
    throw new WebhookVerificationError(
      'invalid_payload',
      `The webhook body is correctly signed but is not an event envelope:\n${issues.join('\n')}`,
    );
  }
  // The schema checks the envelope; the kind stays open, which is what the union's last member says.
  return result.data as WebhookEvent;
}

/**
 * Verifies a webhook delivery and returns its event. Synchronous: it needs only the raw body, the
 * `X-Service-Signature` header and your signing secret(s).
 *
 * The signature is `hmac-sha256=` + the lowercase hex HMAC-SHA256 of the exact body bytes, compared in
 * constant time. During a secret rotation pass both secrets: a delivery signed with either verifies.
 *
 * Throws {@link WebhookVerificationError} (answer 400 and do nothing) with `reason`:
 * `missing_secret`, `body_not_raw` (a parsed object was passed), `missing_signature`,
 * `malformed_signature`, `signature_mismatch` or `invalid_payload` (signed, but not an event envelope).
 * A body that a framework parsed and serialised again as a string cannot be told apart from the
 * original; it simply fails with `signature_mismatch`, since its bytes differ from what was signed.
 *
 * @param rawBody The exact bytes received: a `Buffer`, `Uint8Array`, `ArrayBuffer` or string.
 * @param signatureHeader The `X-Service-Signature` header value (`req.headers['x-service-signature']`
 *   or `request.headers.get('x-service-signature')`).
 * @param secret The endpoint's signing secret, or a list of them during a rotation.
 * @returns The event, typed as a union discriminated by `event_kind` (open for kinds added later).
 *
 * @example
 * import express from 'express';
 * import { verifyWebhook, WebhookVerificationError } from 'partner-payments/webhooks';
 *
 * app.post('/webhooks/payments', express.raw({ type: 'application/json' }), (req, res) => {
 *   let event;
 *   try {
 *     event = verifyWebhook(req.body, req.headers['x-service-signature'], process.env.PAYMENTS_WEBHOOK_SECRET!);
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return res.status(400).send(err.reason);
 *     throw err;
 *   }
 *   if (event.event_kind === 'payment.approved') queueFulfilment(event.resource.order_id);
 *   res.sendStatus(204);
 * });
 */
export function verifyWebhook(
  rawBody: WebhookRawBody,
  signatureHeader: SignatureHeaderValue,
  secret: WebhookSecret,
): WebhookEvent {
  const secrets = normalizeSecrets(secret);
  const body = toBodyBytes(rawBody);
  assertSignature(body, signatureHeader, secrets);
  return parseEvent(body);
}

/**
 * The part of a fetch `Request` that {@link verifyWebhookRequest} reads. Node's, Next.js', Hono's
 * (`c.req.raw`) and Workers' `Request` all fit.
 *
 * @example
 * app.post('/webhooks/payments', async (c) => {
 *   const event = await verifyWebhookRequest(c.req.raw, secret); // Hono
 *   return c.json({ received: event.event_id });
 * });
 */
export interface WebhookRequestLike {
  readonly headers: { get(name: string): string | null };
  readonly bodyUsed?: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * Verifies a fetch-style `Request` (Next.js App Router route handlers, Hono, Cloudflare Workers, Deno,
 * Bun): reads its raw body with `arrayBuffer()` and verifies it like {@link verifyWebhook}. Call it
 * before anything else reads the body (`request.json()` consumes it); it throws `body_not_raw` when the
 * body was already read.
 *
 * @example
 * // app/api/webhooks/payments/route.ts
 * import { verifyWebhookRequest, WebhookVerificationError } from 'partner-payments/webhooks';
 *
 * export async function POST(request: Request) {
 *   try {
 *     const event = await verifyWebhookRequest(request, process.env.PAYMENTS_WEBHOOK_SECRET!);
 *     await queue.push(event);
 *     return new Response(null, { status: 204 });
 *   } catch (err) {
 *     if (err instanceof WebhookVerificationError) return new Response(err.reason, { status: 400 });
 *     throw err;
 *   }
 * }
 */
export async function verifyWebhookRequest(
  request: WebhookRequestLike,
  secret: WebhookSecret,
): Promise<WebhookEvent> {
  const secrets = normalizeSecrets(secret);
  if (typeof request?.headers?.get !== 'function' || typeof request.arrayBuffer !== 'function') {
    throw new WebhookVerificationError(
      'body_not_raw',
      'verifyWebhookRequest takes a fetch Request. For a Node.js request (node:http, Express, Fastify) call ' +
        "verifyWebhook(rawBody, req.headers['x-service-signature'], secret) with the raw body.",
    );
  }
  if (request.bodyUsed) {
    throw new WebhookVerificationError(
      'body_not_raw',
      'The request body was already read (request.json() or request.text() ran first). Call verifyWebhookRequest ' +
        'before anything else reads the body, or pass request.clone().',
    );
  }
  let buffer: ArrayBuffer;
  try {
    buffer = await request.arrayBuffer();
  } catch (cause) {
    throw new WebhookVerificationError('body_not_raw', 'The request body could not be read.', { cause });
  }
  const body = new Uint8Array(buffer);
  assertSignature(body, request.headers.get(SIGNATURE_HEADER), secrets);
  return parseEvent(body);
}
