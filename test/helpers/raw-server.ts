/**
 * A bare node:http server on 127.0.0.1 for failures msw cannot produce: a socket destroyed after
 * the request was read (a reset after sending), a port where nothing listens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  url: string;
  /** Requests received, by `METHOD path`. */
  hits: string[];
  close(): Promise<void>;
}

/** Serves `handler`; every request is recorded after its body was read. */
export async function startRawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<RawServer> {
  const hits: string[] = [];
  const server = createServer(async (req, res) => {
    for await (const _chunk of req) {
      // Drain the body: the request was fully sent before the handler acts.
    }
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL where nothing listens (a port that was just freed). */
export async function refusedUrl(): Promise<string> {
  const server = await startRawServer(() => {});
  await server.close();
  return server.url;
}

/** Destroys the socket once the request was read: the request reached the server, no answer came back. */
export const resetAfterRead = (req: IncomingMessage) => {
  req.socket.destroy();
};
