// The mock service served over loopback HTTP, the one way every test starts it: `serveMock()` for a
// test (or a child process) that starts and stops it itself, `loopbackMock()` for a file's hooks.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import {
  createMockService,
  type MockServer,
  type MockService,
  type MockServiceOptions,
  serveFetch,
} from '../../src/testing/index.js';

/**
 * A handler in front of the mock's engine: it sees (counts, holds, records) each request and answers
 * it, usually with `mock.fetch(request)`. A served front goes through `serveFetch`: the mock's
 * control API (`/_mock/...`) is not served, and a reset fault makes `mock.fetch` reject, which the
 * server answers with a 500 unless the front turns it into `Response.error()` (a dropped connection).
 */
export type Front = (request: Request, mock: MockService) => Response | Promise<Response>;

/** `mock.fetch` served as it is: the serving of the tests written against a fetch handler. */
export const throughFetch: Front = (request, mock) => mock.fetch(request);

export interface LoopbackMockOptions extends MockServiceOptions {
  /** Put in front of the mock; without one, the mock's own server (`mock.listen()`, control API included). */
  front?: Front;
  /** A loopback address. @default '127.0.0.1' */
  host?: string;
}

export interface ServedMock {
  readonly mock: MockService;
  /** The server; its `baseUrl` and `authUrl` are its `url`. */
  readonly server: MockServer;
  /** `http://127.0.0.1:<port>`: the API root and the token issuer root. */
  readonly url: string;
  /** Options for a `PaymentsClient` of the first partner's all-scopes client against this server. */
  clientOptions(): { clientId: string; clientSecret: string; baseUrl: string; authUrl: string };
  /** Closes the server and its open sockets, and stops the mock's real-time clock. */
  stop(): Promise<void>;
}

/** Creates a mock with `options` and serves it on a free loopback port. */
export function serveMock(options: LoopbackMockOptions = {}): Promise<ServedMock> {
  const { front, host, ...mockOptions } = options;
  return serve(createMockService(mockOptions), front, host);
}

async function serve(mock: MockService, front?: Front, host?: string): Promise<ServedMock> {
  let server: MockServer;
  if (front) {
    const served = await serveFetch((request) => Promise.resolve(front(request, mock)), { host });
    server = { ...served, baseUrl: served.url, authUrl: served.url };
  } else {
    server = await mock.listen({ host });
  }
  return {
    mock,
    server,
    url: server.url,
    clientOptions: () => mock.clientOptions(server.url),
    async stop() {
      await server.close();
      mock.close();
    },
  };
}

export interface LoopbackMockHooks {
  /** 'file': started before the file's tests, stopped after them. 'test': one mock per test. @default 'file' */
  per?: 'file' | 'test';
  /** With `per: 'file'`, `mock.reset()` before each test. @default true */
  reset?: boolean;
}

/**
 * Registers the hooks that start and stop a served mock. With `per: 'file'` the mock itself exists at
 * once (`const { mock } = loopbackMock()` works at the top of a file); the server, its URL and the
 * client options are there once `beforeAll` ran. With `per: 'test'` everything is there from
 * `beforeEach` on. A field read too early throws.
 */
export function loopbackMock(options: LoopbackMockOptions = {}, hooks: LoopbackMockHooks = {}): ServedMock {
  const { front, host, ...mockOptions } = options;
  const perTest = hooks.per === 'test';
  // One mock for the whole file: created now, so the file can hold it in a constant.
  const fileMock = perTest ? undefined : createMockService(mockOptions);
  let current: ServedMock | undefined;
  const running = () => {
    if (!current) throw new Error('loopbackMock: the mock is served once its start hook ran');
    return current;
  };
  const start = async () => {
    current = await serve(fileMock ?? createMockService(mockOptions), front, host);
  };
  const stop = async () => {
    await current?.stop();
    current = undefined;
  };
  if (perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
    if (hooks.reset !== false) beforeEach(() => fileMock?.reset());
  }
  return {
    get mock() {
      return fileMock ?? running().mock;
    },
    get server() {
      return running().server;
    },
    get url() {
      return running().url;
    },
    clientOptions: () => running().clientOptions(),
    stop,
  };
}
