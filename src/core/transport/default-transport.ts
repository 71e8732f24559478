// The transport a client uses when the caller gives no `fetch`, in the package's Node.js build.
// The build for other runtimes (package.json's `workerd`, `edge-light`, `deno`, `bun`, `worker` and
// `browser` conditions) replaces this file with default-transport.web.ts: no reference to undici.
import { callerFetch, globalFetchTransport, type TransportOptions } from './global-fetch.js';
import { isNode } from './runtime.js';
import { fetchTransport, type Transport } from './transport.js';
import { undiciTransport } from './undici-transport.js';

/**
 * The caller's `fetch`; else, on Node.js, undici (loaded on the first request); elsewhere the
 * global `fetch`.
 */
export function defaultTransport(options: TransportOptions): { transport: Transport; name: string } {
  if (options.fetch) return { transport: fetchTransport(callerFetch(options.fetch)), name: 'fetch' };
  if (isNode()) {
    return { transport: undiciTransport(options as Parameters<typeof undiciTransport>[0]), name: 'undici' };
  }
  return { transport: globalFetchTransport(options), name: 'fetch' };
}
