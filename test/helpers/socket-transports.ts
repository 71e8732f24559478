import type { PaymentsClientOptions } from '../../src/core/options/options.js';

/**
 * The client options that pick each transport, for tests on real loopback sockets (no msw): the
 * default (undici), and the global `fetch`, looked up at each call (so that a `fetch` patched later,
 * by msw or a spy, is the one used).
 */
export const socketTransports = {
  undici: {},
  fetch: { fetch: (input, init) => globalThis.fetch(input, init) },
} satisfies Record<string, PaymentsClientOptions>;
