// The mock's loopback HTTP server: `serveFetch()` serves a fetch-shaped handler on node:http,
// converting requests and streaming responses (a network-error response drops the connection).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '../../internal/redact.js';
import { newRequestId } from '../engine/respond.js';

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
export async function serveFetch(handler: FetchHandler, options: ServeOptions = {}): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    handle(req, res, host, handler).catch((error: unknown) => {
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
    });
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

/** Turns a Node request into a fetch `Request` with the URL the caller used. */
export async function toRequest(req: IncomingMessage, host: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
  const urlHost = req.headers.host ?? (host.includes(':') ? `[${host}]` : host);
  return new Request(`http://${urlHost}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
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

async function handle(req: IncomingMessage, res: ServerResponse, host: string, handler: FetchHandler) {
  const request = await toRequest(req, host);
  await writeResponse(await handler(request), req, res);
}
