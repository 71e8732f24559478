// Serves a fetch handler on node:http, for running and testing fetch-style handlers locally (on
// Next.js, Hono or Workers the platform does this part).
// typecheck-only: a helper of the fetch-style receivers; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server. */
export interface ServedHandler {
  /** `http://<host>:<port>`. */
  url: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, v);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

/** Listens on `host:port` (loopback, a free port by default) and answers every request with `handler`. */
export async function serveFetchHandler(
  handler: (request: Request) => Response | Promise<Response>,
  { port = 0, host = '127.0.0.1' }: { port?: number; host?: string } = {},
): Promise<ServedHandler> {
  let origin = '';
  const server = createServer(async (req, res) => {
    const response = await handler(await toRequest(req, origin));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
