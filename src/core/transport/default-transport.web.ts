// The default transport in the package's build for runtimes other than Node.js: the caller's
// `fetch`, else the global one. It replaces default-transport.ts there (see tsup.config.ts).
import { callerFetch, globalFetchTransport, type TransportOptions } from './global-fetch.js';
import { fetchTransport, type Transport } from './transport.js';

/** The caller's `fetch`, else the global `fetch`. */
export function defaultTransport(options: TransportOptions): { transport: Transport; name: string } {
  return {
    transport: options.fetch ? fetchTransport(callerFetch(options.fetch)) : globalFetchTransport(options),
    name: 'fetch',
  };
}
