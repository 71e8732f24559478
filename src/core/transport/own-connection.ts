// A connection of its own for each request that must reach the service at most once, where the
// runtime's `fetch` would otherwise resend it: Deno's, which sends a request again when a pooled
// connection is reset or closed before the answer (docs/runtimes.md, "Requests sent once").

/**
 * Adds to a `fetch` init what sends the request on a connection of its own; returns what to
 * release once the exchange is over (the answer read, or the attempt failed).
 */
export type OwnConnection = (init: RequestInit) => () => void;

interface DenoHttpClient {
  close(): void;
}

interface DenoHttp {
  createHttpClient?: (options: { poolMaxIdlePerHost?: number }) => DenoHttpClient;
}

/**
 * On Deno, a fetch client per request (`Deno.createHttpClient`, passed as fetch's `client`) with an
 * empty pool and none kept: its one connection is opened for this request and closed after it, so
 * there is no pooled connection for Deno to resend on. Elsewhere undefined: no other runtime the
 * package supports resends (docs/runtimes.md).
 */
export function denoOwnConnection(): OwnConnection | undefined {
  const deno = (globalThis as { Deno?: DenoHttp }).Deno;
  const create = deno?.createHttpClient;
  if (typeof create !== 'function') return undefined;
  return (init) => {
    const client = create.call(deno, { poolMaxIdlePerHost: 0 });
    (init as RequestInit & { client?: DenoHttpClient }).client = client;
    return () => client.close();
  };
}
