// The mock's loopback HTTP server on node:http: `serveEngine()` hands the engine each request as
// plain data and writes a Reply in one go; `serveFetch()` serves a fetch-shaped handler (a
// network-error response drops the connection, a streamed body is written as it comes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '../../internal/redact.js';
import { type Incoming, incomingFromNode } from '../engine/incoming.js';
import { type Answer, newRequestId, Reply } from '../engine/respond.js';

/**
 * A running loopback HTTP server.
 *
 * @example
 * const server = await mock.listen();
 * afterAll(() => server.close());
 */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and closes the open ones. */
  close(): Promise<void>;
}

/**
 * Options of {@link serveFetch} and `serveHandlers`.
 *
 * @example
 * const server = await serveFetch(mock.fetch, { port: 4010, host: '::1' });
 */
export interface ServeOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** A loopback address. @default '127.0.0.1' */
  host?: string;
}

/** Answers one request: the mock's engine (`mock.fetch`) or any function of that shape. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serves a fetch-shaped handler (`mock.fetch`) on a real loopback HTTP server, without msw. A
 * network-error response (`Response.error()`) drops the connection, as a failing network would.
 *
 * @example
 * const server = await serveFetch(mock.fetch);
 * const client = new PaymentsClient({ baseUrl: server.url, authUrl: server.url, ...mock.credentials });
 */
export function serveFetch(handler: FetchHandler, options: ServeOptions = {}): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  return listenLoopback((req, body) => handler(toRequest(req, body, host)), options);
}

/**
 * Serves the mock's engine on a loopback HTTP server: each request reaches it as an
 * {@link Incoming} (no fetch `Request` is built) and a {@link Reply} is written in one go.
 */
export function serveEngine(
  engine: (incoming: Incoming) => Promise<Answer>,
  options: ServeOptions = {},
): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  return listenLoopback((req, body) => engine(incomingFromNode(req, body, host)), options);
}

const EMPTY = new Uint8Array(0);

/** Whether a request announces a body (neither Content-Length nor Transfer-Encoding: none). */
function hasBody(req: IncomingMessage): boolean {
  const { headers } = req;
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}

/** The whole request body. */
function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function listenLoopback(
  answer: (req: IncomingMessage, body: Uint8Array) => Promise<Answer>,
  options: ServeOptions,
): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    const fail = (error: unknown) => {
      // The handler never throws for a request's own mistakes; this is a bug or a closed socket.
      const requestId = newRequestId();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': requestId });
      res.end(
        JSON.stringify({ error: 'internal_error', message: redact(String(error)), request_id: requestId }),
      );
    };
    const respond = (body: Uint8Array) => {
      let answered: Promise<Answer>;
      try {
        answered = answer(req, body);
      } catch (error) {
        fail(error);
        return;
      }
      answered.then((result) => writeAnswer(result, req, res)).catch(fail);
    };
    // A request without a body (a read) is answered at once, without waiting for its end.
    if (!hasBody(req)) respond(EMPTY);
    else readBody(req).then(respond, fail);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes a Reply in one go (head and body in one write), or streams a fetch `Response`. */
function writeAnswer(answer: Answer, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  if (!(answer instanceof Reply)) return writeResponse(answer, req, res);
  // A Reply is written once: its own headers object takes the length.
  const { headers, body } = answer;
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
}

/** Turns a Node request and its body into a fetch `Request` with the URL the caller used. */
export function toRequest(req: IncomingMessage, body: Uint8Array, host: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body.byteLength > 0;
  const urlHost = req.headers.host ?? (host.includes(':') ? `[${host}]` : host);
  return new Request(`http://${urlHost}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    body: hasBody ? body : undefined,
  });
}

/** Writes a fetch `Response` to a Node response; a network error destroys the socket. */
export async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse) {
  if (response.type === 'error') {
    req.socket.destroy();
    return;
  }
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, response.statusText, outHeaders);
  if (response.body) {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        // Each chunk leaves before the next is read: a dripping body reaches the client as it drips.
        await new Promise<void>((resolve, reject) => res.write(chunk, (e) => (e ? reject(e) : resolve())));
      }
    } catch {
      // A body that errors half-way (a fault cutting the connection): what was written has left;
      // now drop the connection mid-body. Not an RST: the peer's kernel would discard what it has
      // not read yet, the head included, and the test would see a different fault by chance.
      req.socket.destroy();
      return;
    }
  }
  res.end();
}
