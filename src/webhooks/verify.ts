// Webhook verification: `verifyWebhook()` (node:crypto), `verifyWebhookAsync()` (Web Crypto) and
// `verifyWebhookRequest()` for a fetch Request; each returns the event or a WebhookVerificationError.
import { WebhookVerificationError } from '../core/errors/api-errors.js';
import type { WebhookEvent } from '../schemas/events.js';
import { bodyText, maxAgeOf, parseEvent, type VerifyWebhookOptions } from './parse.js';
import { toBody, type WebhookRawBody } from './raw-body.js';
import { nodeApis, utf8Bytes } from './runtime.js';
import {
  matchesSync,
  normalizeSecrets,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type SignatureHeaderValue,
  signatureMismatch,
  type WebhookSecret,
} from './signature.js';
import { hmacKeys, matchesAsync } from './subtle.js';

/**
 * Verifies a webhook delivery and returns its event. Synchronous (HMAC from `node:crypto`, so Node.js,
 * Bun, Deno and Workers with `nodejs_compat`; elsewhere use {@link verifyWebhookAsync}): it needs only
 * the raw body, the `X-Service-Signature` header and your signing secret(s).
 *
 * The signature is `hmac-sha256=` + the lowercase hex HMAC-SHA256 of the exact body bytes, compared in
 * constant time. During a secret rotation pass both secrets: a delivery signed with either verifies.
 *
 * Whatever the arguments, it returns an event or throws {@link WebhookVerificationError} (answer 400
 * and do nothing) with `reason`: `missing_secret`, `body_not_raw` (a parsed object, or a buffer that
 * cannot be read), `missing_signature`, `malformed_signature`, `signature_mismatch`, `invalid_payload`
 * (signed, but not an event envelope of spec 6.3), `unsupported_version` (signed, but an envelope
 * version other than 1) or `event_too_old` (with `maxAgeMs`). A body that a framework parsed and
 * serialised again as a string cannot be told apart from the original; it simply fails with
 * `signature_mismatch`, since its bytes differ from what was signed.
 *
 * @param rawBody The exact bytes received: a `Buffer`, `Uint8Array`, `ArrayBuffer` or string.
 * @param signatureHeader The `X-Service-Signature` header value (`req.headers['x-service-signature']`
 *   or `request.headers.get('x-service-signature')`).
 * @param secret The endpoint's signing secret, or a list of them during a rotation.
 * @param options `maxAgeMs`: refuse events older than this (off by default; see {@link VerifyWebhookOptions}).
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
  options?: VerifyWebhookOptions,
): WebhookEvent {
  const maxAgeMs = maxAgeOf(options);
  const secrets = normalizeSecrets(secret);
  const body = toBody(rawBody);
  const hex = parseSignatureHeader(signatureHeader);
  if (!matchesSync(body, hex, secrets)) throw signatureMismatch(secrets.length);
  return parseEvent(bodyText(body), maxAgeMs);
}

/**
 * Verifies a webhook delivery on Web Crypto (`crypto.subtle`), for runtimes without `node:crypto`:
 * Cloudflare Workers without `nodejs_compat`, Vercel Edge, Deno Deploy, browsers in tests. The same
 * arguments, checks, results and error reasons as {@link verifyWebhook}; the HMAC is checked with
 * `crypto.subtle.verify`, which compares in constant time. The promise resolves to the event or
 * rejects with a {@link WebhookVerificationError}, whatever the arguments.
 *
 * @param rawBody The exact bytes received (`await request.arrayBuffer()`) or their text (`await request.text()`).
 * @param signatureHeader `request.headers.get('x-service-signature')`.
 * @param secret The endpoint's signing secret, or a list of them during a rotation.
 * @param options `maxAgeMs`: refuse events older than this (off by default; see {@link VerifyWebhookOptions}).
 *
 * @example
 * import { verifyWebhookAsync, WebhookVerificationError } from 'partner-payments/webhooks';
 *
 * export default {
 *   async fetch(request: Request, env: { PAYMENTS_WEBHOOK_SECRET: string }) {
 *     try {
 *       const body = await request.arrayBuffer();
 *       const event = await verifyWebhookAsync(body, request.headers.get('x-service-signature'), env.PAYMENTS_WEBHOOK_SECRET);
 *       console.log(event.event_kind);
 *       return new Response(null, { status: 200 });
 *     } catch (err) {
 *       if (err instanceof WebhookVerificationError) return new Response(err.reason, { status: 400 });
 *       throw err;
 *     }
 *   },
 * };
 */
export async function verifyWebhookAsync(
  rawBody: WebhookRawBody,
  signatureHeader: SignatureHeaderValue,
  secret: WebhookSecret,
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const maxAgeMs = maxAgeOf(options);
  const secrets = normalizeSecrets(secret);
  const body = toBody(rawBody);
  const hex = parseSignatureHeader(signatureHeader);
  const keys = hmacKeys(secrets);
  // The bytes parsed must be the bytes verified, though the caller's buffer may change while the
  // digests are computed: the text is decoded now, and subtle.verify copies the bytes as it is
  // called; when the keys must be imported first, the bytes are copied before that wait.
  const cached = Array.isArray(keys);
  const bytes = typeof body === 'string' ? utf8Bytes(body) : cached ? body : body.slice();
  const text = bodyText(body);
  const matched = matchesAsync(bytes, hex, cached ? keys : await keys);
  if (!(await matched)) throw signatureMismatch(secrets.length);
  return parseEvent(text, maxAgeMs);
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
  /** The request headers; the signature is read with `get('x-service-signature')`. */
  readonly headers: {
    /** One header's value, or null when absent. */
    get(name: string): string | null;
  };
  /** True when something already read the body (then it is too late to verify it). */
  readonly bodyUsed?: boolean;
  /** The raw body bytes, exactly as they arrived. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

const notRequest = (cause?: unknown) =>
  new WebhookVerificationError(
    'body_not_raw',
    'verifyWebhookRequest takes a fetch Request. For a Node.js request (node:http, Express, Fastify) call ' +
      "verifyWebhook(rawBody, req.headers['x-service-signature'], secret) with the raw body.",
    { cause },
  );

/** The signature header and the body of a fetch Request, or `body_not_raw` when it cannot give them. */
async function readRequest(request: WebhookRequestLike): Promise<{ header: unknown; body: ArrayBuffer }> {
  let header: unknown;
  try {
    if (typeof request?.headers?.get !== 'function' || typeof request.arrayBuffer !== 'function') {
      throw notRequest();
    }
    if (request.bodyUsed) {
      throw new WebhookVerificationError(
        'body_not_raw',
        'The request body was already read (request.json() or request.text() ran first). Call verifyWebhookRequest ' +
          'before anything else reads the body, or pass request.clone().',
      );
    }
    header = request.headers.get(SIGNATURE_HEADER);
  } catch (err) {
    throw err instanceof WebhookVerificationError ? err : notRequest(err);
  }
  try {
    return { header, body: await request.arrayBuffer() };
  } catch (cause) {
    throw new WebhookVerificationError('body_not_raw', 'The request body could not be read.', { cause });
  }
}

/**
 * Verifies a fetch-style `Request` (Next.js App Router route handlers, Hono, Cloudflare Workers, Deno,
 * Bun): reads its raw body with `arrayBuffer()` and verifies it like {@link verifyWebhook} (or
 * {@link verifyWebhookAsync} where `node:crypto` is missing). Call it before anything else reads the
 * body (`request.json()` consumes it); it rejects with `body_not_raw` when the body was already read.
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
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const secrets = normalizeSecrets(secret);
  const { header, body } = await readRequest(request);
  const signature = header as SignatureHeaderValue;
  if (nodeApis()) return verifyWebhook(body, signature, secrets, options);
  return verifyWebhookAsync(body, signature, secrets, options);
}
