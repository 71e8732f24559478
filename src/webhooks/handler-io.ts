// The two doors of createWebhookHandler: a fetch Request in, a Response out; a Node.js request and
// response. Both read the raw body within the size limit and hand it to the same `receive`.
import { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
import type { WebhookEvent } from '../schemas/events.js';
import { utf8Bytes } from './runtime.js';
import { SIGNATURE_HEADER, type SignatureHeaderValue } from './signature.js';

/** A delivery as both adapters hand it over: the header and the raw body, already within the size limit. */
export interface Delivery {
  header: SignatureHeaderValue;
  body: string | Uint8Array;
}

/** The answer to the service. */
export interface Answer {
  status: number;
  body: { received: boolean; duplicate?: true; error?: string };
}

/**
 * The part of a Node.js request that `handler.node` reads: an `http.IncomingMessage` (node:http,
 * Express), or any object with `method`, `headers` and a `body` a framework already read (Fastify's
 * request with a Buffer body parser).
 *
 * @example
 * server.on('request', (req: NodeWebhookRequest, res) => webhooks.node(req, res));
 */
export interface NodeWebhookRequest {
  readonly method?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Set by a framework that read the body: a Buffer or string is used as the raw body. */
  readonly body?: unknown;
  /** True once the stream was read to its end (by a body parser, when `body` is then unset). */
  readonly readableEnded?: boolean;
  /** The raw body chunks, when nothing has read the stream yet. */
  [Symbol.asyncIterator]?(): AsyncIterator<unknown>;
}

/**
 * The part of a Node.js response that `handler.node` writes: an `http.ServerResponse` (Express's
 * `res`, Fastify's `reply.raw` after `reply.hijack()`).
 *
 * @example
 * const res: NodeWebhookResponse = reply.raw;
 */
export interface NodeWebhookResponse {
  statusCode: number;
  readonly headersSent?: boolean;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(chunk: string): unknown;
}

/** What the adapters need from the handler. */
export interface Receiver {
  maxBodyBytes: number;
  receive(delivery: Delivery): Promise<Answer>;
  fail(status: number, error: unknown, event?: WebhookEvent, code?: string): Answer;
}

const TOO_LARGE = Symbol('too large');

function refuseMethod(r: Receiver, method: string | undefined): Answer {
  return r.fail(
    405,
    new PaymentsError(`Webhook deliveries are POSTs; ${method} was refused.`),
    undefined,
    'method_not_allowed',
  );
}

function refuseSize(r: Receiver): Answer {
  const error = new PaymentsError(
    `The webhook body is larger than maxBodyBytes (${r.maxBodyBytes}); it was not read.`,
  );
  return r.fail(413, error, undefined, 'body_too_large');
}

function consumed(what: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_not_raw',
    `The request body was already read (${what}) and its bytes were not kept, so the signature cannot be checked. ` +
      'Let the webhook handler read the body: mount it before any body parser, or keep the raw bytes ' +
      "(express.raw({ type: '*/*' }) on this route).",
  );
}

/** One array of the chunks' bytes. */
function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Reads chunks up to `limit` bytes; past it, stops keeping them (and `stop`s the source, when it can). */
async function collect(
  chunks: AsyncIterable<unknown>,
  limit: number,
  stop?: () => Promise<void>,
): Promise<Uint8Array | typeof TOO_LARGE> {
  const kept: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? utf8Bytes(chunk) : (chunk as Uint8Array);
    total += bytes.byteLength;
    if (total > limit) {
      if (stop) {
        await stop();
        return TOO_LARGE;
      }
      kept.length = 0; // a Node.js request is drained, not destroyed, so that the 413 reaches the sender
    } else kept.push(bytes);
  }
  return total > limit ? TOO_LARGE : concat(kept, total);
}

async function* readerChunks(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterable<Uint8Array> {
  for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
}

async function fetchAnswer(request: Request, r: Receiver): Promise<Answer> {
  if (request.method !== 'POST') return refuseMethod(r, request.method);
  if (Number(request.headers.get('content-length')) > r.maxBodyBytes) return refuseSize(r);
  if (request.bodyUsed) return r.fail(500, consumed('request.json() or request.text() ran first'));
  let body: Uint8Array | typeof TOO_LARGE = new Uint8Array(0);
  if (request.body) {
    const reader = request.body.getReader();
    try {
      body = await collect(readerChunks(reader), r.maxBodyBytes, () => reader.cancel());
    } catch (err) {
      return r.fail(400, err, undefined, 'body_unreadable');
    }
  }
  if (body === TOO_LARGE) return refuseSize(r);
  return r.receive({ header: request.headers.get(SIGNATURE_HEADER), body });
}

/** Answers a fetch Request; never rejects. */
export async function answerFetch(request: Request, r: Receiver): Promise<Response> {
  let answer: Answer;
  try {
    answer = await fetchAnswer(request, r);
  } catch (err) {
    answer = r.fail(500, err);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (answer.status === 405) headers.allow = 'POST';
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

async function nodeBody(req: NodeWebhookRequest, r: Receiver): Promise<unknown> {
  const given = req.body;
  // Express 4's body parsers leave `{}` when the content type was not theirs, the stream unread.
  if (given !== undefined && !(isEmptyObject(given) && req.readableEnded === false)) {
    const size = typeof given === 'string' ? given.length : ArrayBuffer.isView(given) ? given.byteLength : 0;
    return size > r.maxBodyBytes ? TOO_LARGE : given;
  }
  if (req.readableEnded === true) throw consumed('a body parser ran before the handler and set no req.body');
  if (typeof req[Symbol.asyncIterator] !== 'function') throw consumed('the request is not a readable stream');
  return collect(req as AsyncIterable<unknown>, r.maxBodyBytes);
}

async function nodeAnswer(req: NodeWebhookRequest, r: Receiver): Promise<Answer> {
  if (req.method !== 'POST') return refuseMethod(r, req.method);
  if (Number(req.headers['content-length']) > r.maxBodyBytes) return refuseSize(r);
  let body: unknown;
  try {
    body = await nodeBody(req, r);
  } catch (err) {
    if (err instanceof WebhookVerificationError) return r.fail(500, err);
    return r.fail(400, err, undefined, 'body_unreadable');
  }
  if (body === TOO_LARGE) return refuseSize(r);
  // A parsed object goes on to verification, which refuses it with the explanation for each framework.
  const header = req.headers[SIGNATURE_HEADER] as SignatureHeaderValue;
  return r.receive({ header, body: body as Delivery['body'] });
}

/** Answers a Node.js request; never rejects. */
export async function answerNode(
  req: NodeWebhookRequest,
  res: NodeWebhookResponse,
  r: Receiver,
): Promise<void> {
  let answer: Answer;
  try {
    answer = await nodeAnswer(req, r);
  } catch (err) {
    answer = r.fail(500, err);
  }
  try {
    if (res.headersSent) return; // something else answered already
    res.statusCode = answer.status;
    res.setHeader('content-type', 'application/json');
    if (answer.status === 405) res.setHeader('allow', 'POST');
    res.end(JSON.stringify(answer.body));
  } catch (err) {
    r.fail(500, err); // the connection went away: only onError can hear of it
  }
}
