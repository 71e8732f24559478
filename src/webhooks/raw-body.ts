// The raw webhook body: the types accepted (WebhookRawBody), and `toBody()`, which takes the exact
// bytes or refuses a parsed or unreadable body with `body_not_raw` and help for each framework.
import { WebhookVerificationError } from '../core/errors/api-errors.js';

/**
 * The exact bytes of a webhook request body: a `Buffer`, `Uint8Array` (or any other typed array or
 * `DataView`, read as its bytes), an `ArrayBuffer`, or a string, taken as its UTF-8 encoding (what the
 * service signed, as long as the framework decoded the body as UTF-8 and changed nothing else).
 *
 * @example
 * const rawBody: WebhookRawBody = req.body; // a Buffer, with express.raw({ type: 'application/json' })
 */
export type WebhookRawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** How to keep the raw body in each common framework: the one message every refusal carries. */
export const RAW_BODY_HELP =
  'Pass the raw request body (a Buffer, Uint8Array or string of the exact bytes received), read before any JSON parsing:\n' +
  "  - Express: app.post('/webhooks', express.raw({ type: 'application/json' }), handler), then req.body is a Buffer\n" +
  "  - Fastify: app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => done(null, body))\n" +
  '  - Next.js route handlers, Hono, Workers: const raw = await request.text() (or use verifyWebhookRequest(request, secret))\n' +
  "  - node:http: collect the chunks (req.on('data', c => chunks.push(c))) and use Buffer.concat(chunks)";

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  try {
    return `a parsed ${Array.isArray(value) ? 'array' : 'object'}`;
  } catch {
    return 'a revoked proxy';
  }
}

/** The bytes of a view or buffer; shared memory is copied so that no other thread changes them midway. */
function bytesOf(value: object): Uint8Array | undefined {
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    // The common case (a Buffer, a Uint8Array): the view itself, unless it is empty, where a view of a
    // detached buffer (which reads as empty) is told apart by constructing one over it, which throws.
    if (buffer instanceof ArrayBuffer && value instanceof Uint8Array) {
      if (value.byteLength === 0) new Uint8Array(buffer, value.byteOffset, 0);
      return value;
    }
    const view = new Uint8Array(buffer, value.byteOffset, value.byteLength);
    return buffer instanceof ArrayBuffer ? view : view.slice();
  }
  // The tag check also accepts an ArrayBuffer from another realm (a worker, a vm context).
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object ArrayBuffer]') return new Uint8Array(value as ArrayBuffer);
  if (tag === '[object SharedArrayBuffer]') return new Uint8Array(value as SharedArrayBuffer).slice();
  return undefined;
}

/**
 * The body to verify: a string as it is (hashed as UTF-8, parsed without a round trip), bytes as a
 * `Uint8Array`. Anything else is `body_not_raw`: a parsed object cannot be verified, since serialising
 * it again does not give back the bytes the service signed (key order, spacing, number formatting and
 * unicode escapes may all differ), so it is refused rather than guessed at. A buffer that cannot be
 * read (detached, transferred to a worker) is refused the same way, never with a bare `TypeError`.
 */
export function toBody(rawBody: unknown): string | Uint8Array {
  if (typeof rawBody === 'string') return rawBody;
  let bytes: Uint8Array | undefined;
  if (typeof rawBody === 'object' && rawBody !== null) {
    try {
      bytes = bytesOf(rawBody);
    } catch (cause) {
      throw new WebhookVerificationError(
        'body_not_raw',
        'The webhook body cannot be read: a detached buffer (transferred to a worker or resized away), ' +
          'or an object whose properties throw. Pass the bytes as received.',
        { cause },
      );
    }
  }
  if (bytes) return bytes;
  throw new WebhookVerificationError(
    'body_not_raw',
    `The webhook body is ${describe(rawBody)}, not the raw bytes the signature covers. ` +
      'A body parsed by a framework (express.json(), a default JSON parser) cannot be verified.\n' +
      RAW_BODY_HELP,
  );
}
