import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';
import { redact } from '../internal/redact.js';

/**
 * A running loopback HTTP server.
 *
 * @example
 * const server = await serveHandlers(handlers);
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
 * Options of {@link serveHandlers}.
 *
 * @example
 * const server = await serveHandlers(handlers, { port: 4010, host: '::1' });
 */
export interface ServeOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** A loopback address. @default '127.0.0.1' */
  host?: string;
}

/**
 * Serves msw request handlers on a real loopback HTTP server, so that clients msw cannot intercept
 * (undici's own `request()`, another process) reach them. Handlers should match paths with `*`
 * (`http.get('*\/pos/v1/orders/:id', ...)`), since requests arrive at `http://127.0.0.1:<port>`.
 * A request no handler answers gets a 501, never a pass-through.
 *
 * @example
 * const server = await serveHandlers(mock.handlers);
 * const client = new PaymentsClient({ baseUrl: server.url, authUrl: server.url, ... });
 */
export async function serveHandlers(
  handlers: readonly RequestHandler[] | (() => readonly RequestHandler[]),
  options: ServeOptions = {},
): Promise<LoopbackServer> {
  const host = options.host ?? '127.0.0.1';
  const current = typeof handlers === 'function' ? handlers : () => handlers;
  const server: Server = createServer((req, res) => {
    handle(req, res, host, current).catch((error: unknown) => {
      // msw's path matching throws a URIError on a malformed percent-escape: the caller's mistake.
      const malformed = error instanceof URIError;
      if (!res.headersSent) res.writeHead(malformed ? 400 : 500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: malformed ? 'invalid_request' : 'internal_error',
          message: redact(String(error)),
          request_id: 'mock-adapter',
        }),
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

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  host: string,
  handlers: () => readonly RequestHandler[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0;
  const urlHost = req.headers.host ?? (host.includes(':') ? `[${host}]` : host);
  const request = new Request(`http://${urlHost}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
  const response = await getResponse([...handlers()] as RequestHandler[], request);
  if (response?.type === 'error') {
    // A network-error response (HttpResponse.error()): drop the connection as a failing network would.
    req.socket.destroy();
    return;
  }
  if (!response) {
    res.writeHead(501, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: 'not_implemented',
        // The URL may carry a checkout or launch token in its query.
        message: redact(`No handler for ${req.method} ${req.url}`),
        request_id: 'mock-adapter',
      }),
    );
    return;
  }
  const outHeaders: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, response.statusText, outHeaders);
  if (response.body) {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  }
  res.end();
}
