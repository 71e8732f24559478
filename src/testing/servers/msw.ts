// The mock's msw adapter: msw loaded on first use (an optional peer), the catch-all handlers over
// `mock.fetch`, and `serveHandlers()`, which serves msw handlers on a loopback server.
import { createRequire } from 'node:module';
import { redact } from '../../internal/redact.js';
import { json, newRequestId } from '../engine/respond.js';
import { type FetchHandler, type LoopbackServer, type ServeOptions, serveFetch } from './http-server.js';

type Msw = typeof import('msw');

/**
 * An msw request handler (at run time, an instance of msw's `RequestHandler`): what
 * `mock.handlers` holds and `serveHandlers()` takes. Declared here, not imported from msw: msw is
 * an optional peer, and the types of `partner-payments/testing` must compile without it (with
 * `skipLibCheck: false`, an import of msw's types fails "Cannot find module 'msw'"). It is `any`
 * because msw's class has private members: no structural type of ours could be passed to
 * `setupServer()`.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * const handlers: MswHandler[] = mock.handlers;
 * const server = setupServer(...handlers);
 */
// biome-ignore lint/suspicious/noExplicitAny: msw's RequestHandler is a class with private members (see above).
export type MswHandler = any;

let loaded: Msw | undefined;

/**
 * Loads msw on first use. msw is an optional peer: nothing else of the mock needs it, so importing
 * `partner-payments/testing` and running the bin work without it. `require` (Node 20.19+) resolves
 * msw's `module-sync` build, the same instance an `import 'msw/node'` gets.
 */
export function loadMsw(): Msw {
  if (loaded) return loaded;
  const load = createRequire(import.meta.url);
  try {
    loaded = load('msw') as Msw;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(
        'mock.handlers needs msw, an optional peer dependency: run `npm install -D msw`. ' +
          'Without msw, use mock.fetch(request) or mock.listen() (a loopback server).',
        { cause: error },
      );
    }
    throw error;
  }
  return loaded;
}

/** The msw adapter of the engine: three catch-all handlers that hand the request to `mock.fetch`. */
export function mswHandlers(engine: FetchHandler): MswHandler[] {
  const { http } = loadMsw();
  const resolver = ({ request }: { request: Request }) => engine(request);
  return [
    http.all('*/oauth2/token', resolver),
    http.all('*/pos/v1/*', resolver),
    http.all('*/admin/v1/*', resolver),
  ];
}

/**
 * Serves msw request handlers on a real loopback HTTP server, so that clients msw cannot intercept
 * (undici's own `request()`, another process) reach them. Needs msw; the mock itself does not
 * (`mock.listen()`). Handlers should match paths with `*` (`http.get('*\/pos/v1/orders/:id', ...)`),
 * since requests arrive at `http://127.0.0.1:<port>`. A request no handler answers gets a 501,
 * never a pass-through.
 *
 * @example
 * const server = await serveHandlers([http.get('*\/pos/v1/orders/:id', () => HttpResponse.json({}))]);
 * const client = new PaymentsClient({ baseUrl: server.url, authUrl: server.url, ... });
 */
export function serveHandlers(
  handlers: readonly MswHandler[] | (() => readonly MswHandler[]),
  options: ServeOptions = {},
): Promise<LoopbackServer> {
  const { getResponse } = loadMsw();
  const current = typeof handlers === 'function' ? handlers : () => handlers;
  return serveFetch(async (request) => {
    const response = await getResponse([...current()], request);
    if (response) return response;
    const requestId = newRequestId();
    const url = new URL(request.url);
    // The URL may carry a checkout or launch token in its query.
    const message = redact(`No handler for ${request.method} ${url.pathname}${url.search}`);
    return json(501, { error: 'not_implemented', message, request_id: requestId }, requestId).toResponse();
  }, options);
}
