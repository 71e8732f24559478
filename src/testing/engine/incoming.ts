// One request as the mock's engine reads it (Incoming): method, URL, headers and the whole body,
// built from a fetch `Request` (mock.fetch, msw) or straight from node:http (the loopback server).
import type { IncomingMessage } from 'node:http';

/** The headers of a request, read by lowercase name. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A request as the engine reads it: everything is at hand, the body included. */
export interface Incoming {
  readonly method: string;
  /** The absolute URL the caller used. */
  readonly url: string;
  readonly headers: HeaderReader;
  /** The raw body (empty when none). */
  readonly body: Uint8Array;
}

const EMPTY = new Uint8Array(0);

/** Reads a fetch `Request` into an {@link Incoming} (its body is consumed). */
export async function incomingFromRequest(request: Request): Promise<Incoming> {
  const body = request.body === null ? EMPTY : new Uint8Array(await request.arrayBuffer());
  return { method: request.method, url: request.url, headers: request.headers, body };
}

/** node:http's headers behind {@link HeaderReader} (repeated headers are joined with `, `). */
class NodeHeaders implements HeaderReader {
  constructor(private readonly raw: IncomingMessage['headers']) {}
  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

/** An {@link Incoming} of a node:http request whose body was read into `body`. */
export function incomingFromNode(req: IncomingMessage, body: Uint8Array, fallbackHost: string): Incoming {
  const host = req.headers.host ?? (fallbackHost.includes(':') ? `[${fallbackHost}]` : fallbackHost);
  return {
    method: req.method ?? 'GET',
    url: `http://${host}${req.url ?? '/'}`,
    headers: new NodeHeaders(req.headers),
    body,
  };
}
