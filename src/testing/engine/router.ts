// The mock's request pipeline: `createDispatch()` runs faults, maintenance, the body limit, auth,
// the rate limit and the route; path matching and the mapping of zod issues to the spec's codes.
import type { z } from 'zod';
import { issueLine } from '../../internal/issues.js';
import { playFault } from '../faults/fault-play.js';
import type { FaultQueue } from '../faults/fault-queue.js';
import { observed } from './exchanges.js';
import type { MockCore } from './mock-core.js';
import { TIER_LIMITS, takeToken } from './rate-limit.js';
import { errorResponse, MockApiError, newRequestId, unexpectedErrorResponse } from './respond.js';
import { type AuthRequirement, authenticate, type Caller } from './token-authority.js';

/** The body size limit of api.md section 9. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What a route handler gets; `Body` is what its operation's request schema parses to. */
export interface RouteContext<Body = unknown> {
  request: Request;
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
   * are 400, rule errors 422. Called by the handler, so its own checks (404s) may come first.
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
  handle(ctx: RouteContext): Response | Promise<Response>;
}

/** Matches a pathname against a route pattern; returns the params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = pathname.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (!g) return null;
      params[w.slice(1)] = decodeSegment(g);
    } else if (w !== g) return null;
  }
  return params;
}

/** A malformed escape (`%E0%A4%A`) is the caller's mistake: 400, not a 500 from a URIError. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MockApiError(400, 'invalid_request', 'The path has a malformed percent-escape');
  }
}

const SHAPE_ISSUES = new Set(['invalid_type', 'unrecognized_keys', 'invalid_union']);

/** Maps zod issues to the spec's codes: Level 3 codes first, then 400 for shape, 422 for rules. */
export function issuesToError(issues: readonly z.core.$ZodIssue[]): MockApiError {
  const text = issues.map((i) => issueLine(i, '(body)')).join('; ');
  const level3 = issues.filter((i) => i.path[0] === 'level3');
  if (level3.length > 0) {
    const tax = level3.some(
      (i) =>
        i.code === 'custom' &&
        (i.params as { serviceCode?: string } | undefined)?.serviceCode === 'level3_tax_mismatch',
    );
    return new MockApiError(400, tax ? 'level3_tax_mismatch' : 'level3_validation_failed', text);
  }
  if (issues.some((i) => SHAPE_ISSUES.has(i.code))) return new MockApiError(400, 'invalid_request', text);
  return new MockApiError(422, 'validation_error', text);
}

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

/** Runs one request through the mock: fault injection, maintenance, body limit, auth, rate limit, route. */
export function createDispatch(
  core: MockCore,
  routes: readonly Route[],
  faults: FaultQueue,
  beforeEach: () => void,
) {
  return (request: Request): Promise<Response> => observed(request, dispatch).then(dated);
  /** The service's clock in `Date`, as created_at and the other timestamps (the mock clock). */
  function dated(response: Response): Response {
    try {
      response.headers.set('date', new Date(core.clock.now()).toUTCString());
    } catch {
      // An immutable response (Response.error()) carries no date.
    }
    return response;
  }
  async function dispatch(request: Request, markFaulted: () => void): Promise<Response> {
    const requestId = newRequestId();
    const answer = () => serve(request, requestId);
    try {
      beforeEach();
      const fault = faults.take(request, new URL(request.url).pathname);
      if (!fault) return await answer();
      markFaulted();
      // Waits run on the mock clock: advance it (or run a real-time clock) to let the answer out.
      return await playFault(fault, answer, core.clock, requestId);
    } catch (error) {
      if (error instanceof MockApiError) return errorResponse(error, requestId);
      return unexpectedErrorResponse(error, requestId);
    }
  }
  /** The route's own answer: maintenance, body limit, auth, rate limit, then the handler. */
  async function serve(request: Request, requestId: string): Promise<Response> {
    try {
      const url = new URL(request.url);
      if (core.maintenance) {
        throw new MockApiError(
          503,
          'service_unavailable',
          'The service is in maintenance; retry with backoff',
          {
            'retry-after': '1',
          },
        );
      }
      const candidates = routes.filter((r) => matchPath(r.pattern, url.pathname));
      const route = candidates.find((r) => r.method === request.method);
      if (!route) {
        if (candidates.length > 0) {
          const allow = candidates.map((r) => r.method).join(', ');
          throw new MockApiError(405, 'method_not_allowed', `${request.method} is not allowed here`, {
            allow,
          });
        }
        throw new MockApiError(404, 'not_found', `The mock serves no ${request.method} ${url.pathname}`);
      }
      const bytes = new Uint8Array(await request.arrayBuffer());
      if (bytes.byteLength > MAX_BODY_BYTES) {
        throw new MockApiError(413, 'invalid_request', 'The request body exceeds the 1 MiB limit');
      }
      const rawBody = new TextDecoder().decode(bytes);
      let caller = ANONYMOUS;
      if (route.auth) {
        caller = await authenticate(
          request.headers.get('authorization'),
          route.auth,
          core.authority,
          core.state,
          core.clock.now(),
        );
        if (core.options.rateLimits) {
          const result = takeToken(
            core.buckets.get(caller.subject),
            TIER_LIMITS[caller.tier],
            core.clock.now(),
          );
          core.buckets.set(caller.subject, result.bucket);
          if (!result.allowed) {
            throw new MockApiError(
              429,
              'rate_limit_exceeded',
              `Rate limit of the ${caller.tier} tier exceeded`,
              {
                'retry-after': String(result.retryAfterSeconds),
              },
            );
          }
        }
      }
      const ctx: RouteContext = {
        request,
        url,
        origin: url.origin,
        params: matchPath(route.pattern, url.pathname)!,
        requestId,
        caller,
        rawBody,
        body() {
          if (!route.body) throw new Error(`${route.operationId} takes no JSON body`);
          const result = route.body.safeParse(parseJson(rawBody));
          if (!result.success) throw issuesToError(result.error.issues);
          return result.data;
        },
      };
      return await route.handle(ctx);
    } catch (error) {
      if (error instanceof MockApiError) return errorResponse(error, requestId);
      return unexpectedErrorResponse(error, requestId);
    }
  }
}
