// The mock's control API and dashboard as one fetch-style handler for paths under `/_mock`: routing,
// the loopback and same-origin guard, body parsing, and error answers.
import { isLoopbackHost } from '../../internal/loopback.js';
import type { Incoming } from '../engine/incoming.js';
import { issuesToError } from '../engine/issues.js';
import {
  type Answer,
  errorResponse,
  json,
  MockApiError,
  MockControlError,
  type MockControlErrorCode,
  newRequestId,
  Reply,
  unexpectedErrorResponse,
} from '../engine/respond.js';
import { ACCESS_ROUTES } from './access-routes.js';
import { controlOpenApi } from './openapi.js';
import { ORDER_ROUTES } from './orders.js';
import { CONTROL_ROUTES, type ControlDeps, type ControlRoute } from './routes.js';

/** The prefix every control path starts with (the dashboard is `/_mock/`). */
export const CONTROL_PREFIX = '/_mock';

/** Whether a request is for the control API or the dashboard rather than the service. */
export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

const META_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_mock/v1/openapi.json',
    operationId: 'getControlOpenApi',
    summary: 'This document',
    tag: 'meta',
    status: 200,
    response: 'json-document',
    errors: [],
    handle: () => controlOpenApi(ALL_ROUTES),
  },
  {
    method: 'GET',
    path: '/_mock',
    operationId: 'getDashboard',
    summary: 'The dashboard: orders, payments, refunds, webhook deliveries and the clock, with controls',
    tag: 'meta',
    status: 200,
    response: 'html',
    errors: [],
    handle: ({ url, requestId }, deps) => deps.dashboard(deps, url, requestId),
  },
];

/** The error code the control API answers a {@link MockControlError} with (its status is the error's). */
const CONTROL_CODES: Record<MockControlErrorCode, string> = {
  conflict: 'invalid_state',
  not_found: 'not_found',
  invalid: 'invalid_request',
};

/** A control that refused (a transition that does not fit, a bad fault spec) as the control API answers it. */
export function controlApiError(error: MockControlError): MockApiError {
  return new MockApiError(error.status, CONTROL_CODES[error.code], error.message);
}

/** The control API's route table: routing and the OpenAPI document both read it. */
export const ALL_ROUTES: readonly ControlRoute[] = [
  ...ACCESS_ROUTES,
  ...CONTROL_ROUTES,
  ...ORDER_ROUTES,
  ...META_ROUTES,
];

function match(template: string, pathname: string): Record<string, string> | null {
  const want = template.split('/');
  // The dashboard answers on `/_mock` and `/_mock/`.
  const got = (pathname === `${CONTROL_PREFIX}/` ? CONTROL_PREFIX : pathname).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    const name = /^\{(\w+)\}$/.exec(w)?.[1];
    if (name) {
      if (!g) return null;
      try {
        params[name] = decodeURIComponent(g);
      } catch {
        throw new MockApiError(400, 'invalid_request', 'The path has a malformed percent-escape');
      }
    } else if (w !== g) return null;
  }
  return params;
}

/**
 * Refuses what a browser page from another origin, or a DNS-rebinding host name, could send: the
 * control API has no authentication, so only this machine's own pages and tools may drive it.
 */
function guard(request: Incoming, url: URL): void {
  if (!isLoopbackHost(url.hostname)) {
    throw new MockApiError(403, 'forbidden', 'The control API answers loopback host names only');
  }
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if ((origin && origin !== url.origin) || site === 'cross-site') {
    throw new MockApiError(403, 'forbidden', 'The control API refuses cross-origin requests');
  }
}

function parseBody(route: ControlRoute, request: Incoming): unknown {
  if (!route.body) return undefined;
  const raw = new TextDecoder().decode(request.body);
  let value: unknown = {};
  if (raw.trim() !== '') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new MockApiError(400, 'invalid_request', 'The request body is not valid JSON');
    }
  } else if (!route.bodyOptional) {
    throw new MockApiError(400, 'invalid_request', 'The request body is empty; send JSON');
  }
  const result = route.body.safeParse(value);
  if (!result.success) throw issuesToError(result.error.issues, value);
  return result.data;
}

/**
 * The control API and dashboard as one fetch-style handler, for the loopback server to call on
 * every path under `/_mock`.
 *
 * @example
 * const control = createControlHandler({ mock, state: () => core.state, dashboard: renderDashboard });
 * const answer = await control(await incomingFromRequest(new Request('http://127.0.0.1:4010/_mock/v1/clock')));
 */
export function createControlHandler(deps: ControlDeps) {
  return async function control(request: Incoming): Promise<Answer> {
    const requestId = newRequestId();
    try {
      const url = new URL(request.url);
      guard(request, url);
      const candidates = ALL_ROUTES.map((route) => ({
        route,
        params: match(route.path, url.pathname),
      })).filter((c) => c.params !== null);
      const found = candidates.find((c) => c.route.method === request.method);
      if (!found) {
        if (candidates.length > 0) {
          const allow = candidates.map((c) => c.route.method).join(', ');
          throw new MockApiError(405, 'method_not_allowed', `${request.method} is not allowed here`, {
            allow,
          });
        }
        throw new MockApiError(404, 'not_found', `The control API has no ${request.method} ${url.pathname}`);
      }
      const body = parseBody(found.route, request);
      const result = await found.route.handle({ params: found.params!, body, url, requestId }, deps);
      if (result instanceof Reply || result instanceof Response) return result;
      return json(found.route.status, result, requestId, { 'cache-control': 'no-store' });
    } catch (error) {
      if (error instanceof MockControlError) return errorResponse(controlApiError(error), requestId);
      if (error instanceof MockApiError) return errorResponse(error, requestId);
      return unexpectedErrorResponse(error, requestId);
    }
  };
}
