// The mock's well-known documents (spec 4.10): the OpenAPI and AsyncAPI documents, built once per
// origin.
import { buildAsyncApiDocument } from '../documents/asyncapi.js';
import { buildOpenApiDocument } from '../documents/openapi.js';
import type { MockCore } from '../engine/mock-core.js';
import { json, MockApiError } from '../engine/respond.js';
import type { RouteContext } from '../engine/router.js';
import type { Handlers } from './handlers.js';

/** 4.10 the machine-readable descriptions (no authentication). */
export function wellKnownRoutes(
  core: MockCore,
): Pick<Handlers, 'getOpenApiDocument' | 'getAsyncApiDocument'> {
  const serve = (name: string, build: (origin: string) => unknown) => {
    // Built once per origin: the OpenAPI servers and token URL name the origin it was fetched from.
    const cache = new Map<string, unknown>();
    return (ctx: RouteContext) => {
      if (!core.options.specs) throw new MockApiError(404, 'spec_not_available', `${name} is not bundled`);
      if (!cache.has(ctx.origin)) cache.set(ctx.origin, build(ctx.origin));
      return json(200, cache.get(ctx.origin), ctx.requestId);
    };
  };
  return {
    getOpenApiDocument: serve('openapi.json', buildOpenApiDocument),
    getAsyncApiDocument: serve('asyncapi.json', buildAsyncApiDocument),
  };
}
