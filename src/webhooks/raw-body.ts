import { WebhookVerificationError } from '../core/errors.js';

/**
 * The exact bytes of a webhook request body. A string is taken as its UTF-8 encoding, which is what
 * the service signed as long as the framework decoded the body as UTF-8 and changed nothing else.
 *
 * @example
 * const rawBody: WebhookRawBody = req.body; // a Buffer, with express.raw({ type: 'application/json' })
 */
export type WebhookRawBody = string | Buffer | Uint8Array | ArrayBuffer;

/** How to keep the raw body in each common framework: the one message every refusal carries. */
const RAW_BODY_HELP =
  'Pass the raw request body (a Buffer, Uint8Array or string of the exact bytes received), read before any JSON parsing:\n' +
  "  - Express: app.post('/webhooks', express.raw({ type: 'application/json' }), handler), then req.body is a Buffer\n" +
  "  - Fastify: app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => done(null, body))\n" +
  '  - Next.js route handlers, Hono, Workers: const raw = await request.text() (or use verifyWebhookRequest(request, secret))\n' +
  "  - node:http: collect the chunks (req.on('data', c => chunks.push(c))) and use Buffer.concat(chunks)";

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') return `a parsed ${Array.isArray(value) ? 'array' : 'object'}`;
  return `a ${typeof value}`;
}

/**
 * The bytes of `rawBody`, or `body_not_raw` when it is anything else. A parsed object cannot be
 * verified: serialising it again does not give back the bytes the service signed (key order, spacing,
 * number formatting and unicode escapes may all differ), so it is refused rather than guessed at.
 */
export function toBodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  // The tag check also accepts an ArrayBuffer from another realm (a worker, a vm context).
  if (rawBody instanceof ArrayBuffer || Object.prototype.toString.call(rawBody) === '[object ArrayBuffer]') {
    return new Uint8Array(rawBody as ArrayBuffer);
  }
  if (ArrayBuffer.isView(rawBody))
    return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw new WebhookVerificationError(
    'body_not_raw',
    `The webhook body is ${describe(rawBody)}, not the raw bytes the signature covers. ` +
      'A body parsed by a framework (express.json(), a default JSON parser) cannot be verified.\n' +
      RAW_BODY_HELP,
  );
}
