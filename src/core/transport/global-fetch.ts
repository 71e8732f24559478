// The transport over the global `fetch`, for runtimes where undici's `dispatcher` and `proxy`
// options cannot apply (they are refused), and the TransportOptions that pick a transport.
import { ConfigurationError } from '../errors/api-errors.js';
import { denoOwnConnection } from './own-connection.js';
import { fetchTransport, type Transport } from './transport.js';

/** What picks the transport: the caller's `fetch`, `dispatcher` or `proxy`. */
export interface TransportOptions {
  fetch?: typeof globalThis.fetch | undefined;
  dispatcher?: unknown;
  proxy?: string | undefined;
}

/**
 * The global `fetch`, where undici's `dispatcher` and `proxy` cannot apply; on Deno, requests that
 * must reach the service at most once get a connection of their own.
 */
export function globalFetchTransport(options: TransportOptions): Transport {
  for (const option of ['dispatcher', 'proxy'] as const) {
    if (options[option] !== undefined) {
      throw new ConfigurationError(
        option,
        'applies on Node.js only (undici). On this runtime pass `fetch` to control how requests are sent.',
      );
    }
  }
  if (typeof globalThis.fetch !== 'function') {
    throw new ConfigurationError('fetch', 'is required: this runtime has no global fetch.');
  }
  // Looked up on each call, so that a fetch patched after the client was made (msw) takes effect.
  // On Deno, a payment or refund goes out on a connection of its own (own-connection.ts).
  return fetchTransport((input, init) => globalThis.fetch(input, init), undefined, denoOwnConnection());
}

/**
 * The caller's `fetch`, except the global one, which is looked up on each call: a client made with
 * `fetch: globalThis.fetch` before msw's `server.listen()` patched it still goes through msw.
 */
export function callerFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  if (fetch !== globalThis.fetch) return fetch;
  return (input, init) => globalThis.fetch(input, init);
}
