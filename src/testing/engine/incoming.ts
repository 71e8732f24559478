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
  /** The URL's pathname as `new URL(url).pathname` gives it, when known without parsing the URL. */
  readonly path?: string;
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

/** A request target of plain path characters (no dot segment, escape, backslash or non-ASCII). */
const PLAIN_TARGET = /^\/[A-Za-z0-9_\-/]*(?:\?|$)/;

/** Whether a Host header value makes a valid URL, remembered for the few hosts a server sees. */
const validHosts = new Map<string, boolean>();
function validHost(host: string): boolean {
  let valid = validHosts.get(host);
  if (valid === undefined) {
    valid = URL.canParse(`http://${host}/`);
    if (validHosts.size >= 64) validHosts.clear();
    validHosts.set(host, valid);
  }
  return valid;
}

/**
 * The pathname of a request target (`/pos/v1/orders?limit=5`) on a valid host, when it is what the
 * URL parser would make of it: a plain path (no dot segment, escape, backslash or non-ASCII).
 */
function plainPath(host: string, target: string): string | undefined {
  const plain = PLAIN_TARGET.exec(target);
  if (!plain || !validHost(host)) return undefined;
  return plain[0].endsWith('?') ? plain[0].slice(0, -1) : plain[0];
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
  const target = req.url ?? '/';
  const url = `http://${host}${target}`;
  return {
    method: req.method ?? 'GET',
    url,
    path: plainPath(host, target),
    headers: new NodeHeaders(req.headers),
    body,
  };
}
