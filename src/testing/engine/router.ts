// The mock's request pipeline: `createDispatch()` runs faults, maintenance, the body limit, auth,
// the rate limit and the route.
import type { z } from 'zod';
import { observed } from './exchanges.js';
import type { HeaderReader, Incoming } from './incoming.js';
import { issuesToError } from './issues.js';
import type { MockCore } from './mock-core.js';
import { TIER_LIMITS, takeToken } from './rate-limit.js';
import {
  type Answer,
  errorResponse,
  MockApiError,
  newRequestId,
  Reply,
  unexpectedErrorResponse,
} from './respond.js';
import { compileRoutes } from './route-match.js';
import { type AuthRequirement, authenticate, type Caller } from './token-authority.js';

export { issuesToError } from './issues.js';
export { matchPath } from './route-match.js';

/** The body size limit of the design notes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What a route handler gets; `Body` is what its operation's request schema parses to. */
export interface RouteContext<Body = unknown> {
  /** The request's headers, by lowercase name. */
  headers: HeaderReader;
  url: URL;
  /** The origin the request came in on: URLs the mock hands out are built from it. */
  origin: string;
  /** Path parameters, named as in the route table's path template (`order_id`). */
  params: Record<string, string>;
  requestId: string;
  /** Set when the route requires authentication. */
  caller: Caller;
  rawBody: string;
  /**
   * Parses the JSON body with the operation's request schema from the route table; shape errors
   * and absent required values are 400, rule errors 422. Called by the handler, so its own checks
   * (404s) may come first.
   */
  body(): Body;
}

/** One route, derived from an operation of the route table (routes/index.ts). */
export interface Route {
  method: string;
  /** A path with `:name` segments, e.g. `/pos/v1/orders/:order_id`. */
  pattern: string;
  operationId: string;
  auth?: AuthRequirement;
  /** The request schema `ctx.body()` parses with. */
  body?: z.ZodType;
  handle(ctx: RouteContext): Answer | Promise<Answer>;
}

const DECODER = new TextDecoder();

function parseJson(raw: string): unknown {
  if (raw.trim() === '')
    throw new MockApiError(400, 'invalid_request', 'The request body is empty; send JSON');
  try {
    return JSON.parse(raw);
  } catch {
    throw new MockApiError(400, 'invalid_request', 'The request body is not valid JSON');
  }
}

const ANONYMOUS: Caller = {
  pool: 'm2m',
  partnerId: '',
  clientId: null,
  subject: '',
  scopes: [],
  tier: 'standard',
};

const MAINTENANCE = () =>
  new MockApiError(503, 'service_unavailable', 'The service is in maintenance; retry with backoff', {
    'retry-after': '1',
  });

/** The error envelope of a thrown error: a MockApiError as itself, anything else a redacted 500. */
function failed(error: unknown, requestId: string): Reply {
  if (error instanceof MockApiError) return errorResponse(error, requestId);
  return unexpectedErrorResponse(error, requestId);
}

/** `Date` header values of the mock clock, formatted once per second of it. */
function dateHeader(core: MockCore): () => string {
  let second = Number.NaN;
  let text = '';
  return () => {
    const now = core.clock.now();
    const current = Math.floor(now / 1000);
    if (current !== second) {
      second = current;
      text = new Date(now).toUTCString();
    }
    return text;
  };
}

/** A handler's {@link RouteContext}; the URL is parsed only if the handler reads it. */
class Context implements RouteContext {
  #url: URL | undefined;
  readonly #href: string;
  readonly #route: Route;
  readonly headers: HeaderReader;
  constructor(
    incoming: Incoming,
    readonly params: Record<string, string>,
    readonly requestId: string,
    readonly caller: Caller,
    readonly rawBody: string,
    route: Route,
  ) {
    this.headers = incoming.headers;
    this.#href = incoming.url;
    this.#route = route;
  }
  get url(): URL {
    this.#url ??= new URL(this.#href);
    return this.#url;
  }
  get origin(): string {
    return this.url.origin;
  }
  body(): unknown {
    const route = this.#route;
    if (!route.body) throw new Error(`${route.operationId} takes no JSON body`);
    const input = parseJson(this.rawBody);
    const result = route.body.safeParse(input);
    if (!result.success) throw issuesToError(result.error.issues, input);
    return result.data;
  }
}

/**
 * Plays an injected fault around the route's own answer: `route` runs at most once, and only when
 * the fault lets it (faults/fault-play.ts).
 */
export type PlayFault = (route: () => Promise<Answer>, requestId: string) => Promise<Answer>;

/**
 * The injected fault that meets a request, ready to play, or undefined when none does. The faults
 * stand above this pipeline (they answer with its errors and read its requests), so whoever wires
 * the mock hands them in here rather than the router importing them.
 */
export type TakeFault = (incoming: Incoming, path: string) => PlayFault | undefined;

/** Runs one request through the mock: fault injection, maintenance, body limit, auth, rate limit, route. */
export function createDispatch(
  core: MockCore,
  routes: readonly Route[],
  takeFault: TakeFault,
  beforeEach: () => void,
) {
  const find = compileRoutes(routes);
  const dates = dateHeader(core);
  return (incoming: Incoming): Promise<Answer> => observed(incoming, dispatch);
  /** The service's clock in `Date`, as `created_at` and the other timestamps (the mock clock). */
  function dated(answer: Answer): Answer {
    const date = dates();
    if (answer instanceof Reply) {
      answer.headers.date = date;
      return answer;
    }
    try {
      answer.headers.set('date', date);
    } catch {
      // An immutable response (Response.error()) carries no date.
    }
    return answer;
  }
  function dispatch(incoming: Incoming, markFaulted: () => void): Promise<Answer> {
    const requestId = newRequestId();
    try {
      beforeEach();
      const path = incoming.path ?? new URL(incoming.url).pathname;
      const play = takeFault(incoming, path);
      if (!play) return serve(incoming, path, requestId);
      markFaulted();
      // Waits run on the mock clock: advance it (or run a real-time clock) to let the answer out.
      return play(() => serve(incoming, path, requestId), requestId).then(dated, (error) =>
        dated(failed(error, requestId)),
      );
    } catch (error) {
      return Promise.resolve(dated(failed(error, requestId)));
    }
  }
  /** The route's own answer, dated: maintenance, body limit, auth, rate limit, then the handler. */
  function serve(incoming: Incoming, path: string, requestId: string): Promise<Answer> {
    try {
      const answer = route(incoming, path, requestId);
      if (answer instanceof Promise) {
        return answer.then(dated, (error: unknown) => dated(failed(error, requestId)));
      }
      return Promise.resolve(dated(answer));
    } catch (error) {
      return Promise.resolve(dated(failed(error, requestId)));
    }
  }
  function route(incoming: Incoming, path: string, requestId: string): Answer | Promise<Answer> {
    if (core.maintenance) throw MAINTENANCE();
    const { method } = incoming;
    const { route, params, allowed } = find(method, path);
    if (!route) {
      if (allowed.length > 0) {
        throw new MockApiError(405, 'method_not_allowed', `${method} is not allowed here`, {
          allow: allowed.join(', '),
        });
      }
      throw new MockApiError(404, 'not_found', `The mock serves no ${method} ${path}`);
    }
    if (incoming.body.byteLength > MAX_BODY_BYTES) {
      throw new MockApiError(413, 'invalid_request', 'The request body exceeds the 1 MiB limit');
    }
    const rawBody = incoming.body.byteLength === 0 ? '' : DECODER.decode(incoming.body);
    const caller = route.auth ? admit(incoming, route.auth) : ANONYMOUS;
    return route.handle(new Context(incoming, params, requestId, caller, rawBody, route));
  }
  /** The caller of an authenticated route, after its token and its rate-limit bucket. */
  function admit(incoming: Incoming, requirement: AuthRequirement): Caller {
    const now = core.clock.now();
    const caller = authenticate(
      incoming.headers.get('authorization'),
      requirement,
      core.authority,
      core.state,
      now,
    );
    if (!core.options.rateLimits) return caller;
    const result = takeToken(core.buckets.get(caller.subject), TIER_LIMITS[caller.tier], now);
    core.buckets.set(caller.subject, result.bucket);
    if (!result.allowed) {
      throw new MockApiError(429, 'rate_limit_exceeded', `Rate limit of the ${caller.tier} tier exceeded`, {
        'retry-after': String(result.retryAfterSeconds),
      });
    }
    return caller;
  }
}
