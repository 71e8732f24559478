/**
 * Runs one behaviour suite through BOTH transports of the client, against the same msw handlers:
 *
 *  - `undici`: the default transport (undici's dispatcher), against the handlers served on a real
 *    127.0.0.1 HTTP server by `serveHandlers()` (msw intercepts only the global `fetch`);
 *  - `fetch`: a client given `fetch: globalThis.fetch`, with the handlers under in-process msw
 *    `setupServer` (`onUnhandledRequest: 'error'`: nothing slips through).
 *
 * Usage:
 *
 *   describeTransports('orders', (t) => {
 *     it('creates', async () => {
 *       t.use(http.post('*\/pos/v1/orders', () => HttpResponse.json(order, { status: 201 })));
 *       const client = t.client();               // PaymentsClient wired to this transport
 *       await client.orders.create(params);
 *       expect(t.requests('POST', '/pos/v1/orders')).toHaveLength(1);
 *     });
 *   }, { handlers: () => createMock().handlers }); // base handlers, made afresh before each test
 *                                                  // (default: a token endpoint only)
 *
 * - `t.use(...handlers)` adds handlers in front of the base ones for the current test only.
 * - `t.requests(method?, path?)` lists every request that reached the handlers in the current test
 *   (method, path, query, lower-case headers, body text), in order.
 * - `t.client(options?)` builds a client for this transport: baseUrl/authUrl point at the handlers,
 *   credentials are {@link TEST_CLIENT_ID}/{@link TEST_CLIENT_SECRET}; your options override them.
 * - Handlers must match with `*\/path` (the host differs between the two transports).
 * - Fake timers: fake only what you need (`toFake: ['setTimeout', 'clearTimeout', 'Date']`), restore
 *   them after each test, and keep tests that need a real attempt timeout in a file without fake
 *   timers: undici's shared internal timer, once created under fake timers, stays fake.
 */
import type { RequestHandler } from 'msw';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import type { PaymentsClientOptions } from '../../src/core/options/options.js';
import type { LoopbackServer } from '../../src/testing/servers/http-server.js';
import { serveHandlers } from '../../src/testing/servers/msw.js';
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, tokenEndpoint } from './handlers.js';

export { TEST_CLIENT_ID, TEST_CLIENT_SECRET };

/** Which transport a suite runs on. */
export type TransportKind = 'undici' | 'fetch';

/** One request as the handlers saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}

/** What a suite body gets. */
export interface TransportHarness {
  readonly kind: TransportKind;
  /** The base URL the handlers answer on (valid inside tests). */
  readonly baseUrl: string;
  use(...handlers: RequestHandler[]): void;
  requests(method?: string, path?: string): RecordedRequest[];
  client(options?: PaymentsClientOptions): PaymentsClient;
}

/** Options of {@link describeTransports}. */
export interface DescribeTransportsOptions {
  /** Makes the handlers each test starts from (called before every test). @default a token endpoint only */
  handlers?: () => readonly RequestHandler[];
  /** Which transports to run. @default ['undici', 'fetch'] */
  kinds?: readonly TransportKind[];
}

// Requests to this host are answered by msw in-process; if one ever escaped it could not resolve.
const FETCH_BASE_URL = 'https://payments.test';

/** Defines `describe('<name> [undici]')` and `describe('<name> [fetch]')` running `body`. */
export function describeTransports(
  name: string,
  body: (t: TransportHarness) => void,
  options: DescribeTransportsOptions = {},
): void {
  for (const kind of options.kinds ?? ['undici', 'fetch']) {
    describe(`${name} [${kind}]`, () =>
      body(makeHarness(kind, options.handlers ?? (() => [tokenEndpoint()]))));
  }
}

function makeHarness(kind: TransportKind, base: () => readonly RequestHandler[]): TransportHarness {
  let overrides: RequestHandler[] = [];
  let recorded: RecordedRequest[] = [];
  let baseHandlers: readonly RequestHandler[] = [];
  // First in line, answers nothing: msw moves on to the next handler.
  const recorder = http.all('*', async ({ request }) => {
    const url = new URL(request.url);
    recorded.push({
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: Object.fromEntries(request.headers),
      body: await request.clone().text(),
    });
  });
  const current = () => [recorder, ...overrides, ...baseHandlers];
  let server: LoopbackServer | undefined;
  const mswServer = kind === 'fetch' ? setupServer() : undefined;

  beforeAll(async () => {
    if (mswServer) mswServer.listen({ onUnhandledRequest: 'error' });
    else server = await serveHandlers(current);
  });
  // Fresh base handlers for every test: stateful handlers (a token counter, a mock) start over.
  beforeEach(() => {
    baseHandlers = base();
    mswServer?.resetHandlers(...current());
  });
  afterEach(() => {
    overrides = [];
    recorded = [];
  });
  afterAll(async () => {
    mswServer?.close();
    await server?.close();
  });

  return {
    kind,
    get baseUrl() {
      if (kind === 'fetch') return FETCH_BASE_URL;
      if (!server) throw new Error('baseUrl is only known inside a test');
      return server.url;
    },
    use(...handlers) {
      overrides = [...handlers, ...overrides];
      mswServer?.resetHandlers(...current());
    },
    requests(method, path) {
      return recorded.filter((r) => (!method || r.method === method) && (!path || r.path === path));
    },
    client(opts = {}) {
      const url = this.baseUrl;
      return new PaymentsClient({
        clientId: TEST_CLIENT_ID,
        clientSecret: TEST_CLIENT_SECRET,
        baseUrl: url,
        authUrl: url,
        // Late-bound: msw patches globalThis.fetch when the server starts listening.
        ...(kind === 'fetch' ? { fetch: (input, init) => globalThis.fetch(input, init) } : {}),
        // These suites pin the call path's own retry policy (a lost payment answer is outcomeUnknown);
        // reconciliation on top of it is tested in test/intents.
        reconcile: 'off',
        ...opts,
      });
    },
  };
}
