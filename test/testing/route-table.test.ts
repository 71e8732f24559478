import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/testing/documents/openapi.js';
import { REQUEST_SCHEMAS } from '../../src/testing/documents/schemas.js';
import type { MockCore } from '../../src/testing/engine/mock-core.js';
import { buildRoutes } from '../../src/testing/routes/index.js';
import { useMock } from './helpers.js';

// One route table (src/testing/documents/operations.ts): the router's routes, their scope checks and the
// OpenAPI document all come from it. These tests compare what is routed with what is described,
// and check that every described scope is enforced.

// Building the routes only creates the handlers' closures; nothing here calls them.
const routes = buildRoutes({} as MockCore);
const doc = buildOpenApiDocument() as {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        security: { oauth2: string[] }[];
        requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
      }
    >
  >;
};

interface Described {
  key: string;
  operationId: string;
  scope: string | null;
  body: string | null;
}

const described: Described[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({
    key: `${method.toUpperCase()} ${path}`,
    operationId: op.operationId,
    scope: op.security[0]?.oauth2[0] ?? null,
    body: op.requestBody?.content['application/json']?.schema.$ref?.split('/').pop() ?? null,
  })),
);

const routed: Described[] = routes.map((route) => ({
  key: `${route.method} ${route.pattern.replace(/:(\w+)/g, '{$1}')}`,
  operationId: route.operationId,
  scope: route.auth?.scope ?? null,
  body:
    (Object.entries(REQUEST_SCHEMAS).find(([, schema]) => schema === route.body)?.[0] as
      | string
      | undefined) ?? null,
}));

const byKey = (a: Described, b: Described) => a.key.localeCompare(b.key);

describe('the route table', () => {
  it("the OpenAPI document's operations are exactly the router's routes (method, path, scope, body)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(17);
    expect([...routed].sort(byKey)).toEqual([...described].sort(byKey));
    expect(new Set(routed.map((r) => r.key)).size).toBe(routed.length);
  });

  it('only order creation takes POS user tokens, and the document says so', () => {
    const userRoutes = routes.filter((r) => r.auth?.allowUserPool).map((r) => r.operationId);
    expect(userRoutes).toEqual(['createOrder']);
    const createOrder = doc.paths['/pos/v1/orders']!.post as unknown as { description: string };
    expect(createOrder.description).toContain('POS user tokens are accepted');
  });
});

describe('every scope the document names is enforced by the router', () => {
  const h = useMock();
  // Random ids (a 404 after the scope check), but the caller's own partner (else a 403 permission_denied).
  const concrete = (template: string) =>
    template.replace(/\{(\w+)\}/g, (_, name) => (name === 'partner_id' ? h.a().partnerId : randomUUID()));

  it.each(described.flatMap((d) => (d.scope === null ? [] : [[d.key, d.scope] as const])))(
    '%s needs %s',
    async (key, scope) => {
      const [method, template] = key.split(' ') as [string, string];
      const path = concrete(template);
      const body = method === 'POST' ? {} : undefined;
      const other = scope === 'svc/pos:launch' ? 'svc/payments:read' : 'svc/pos:launch';
      const none = await h.call(method, path, { token: null, body });
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('missing_token');
      const wrong = await h.call(method, path, { token: await h.token(undefined, other), body });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toBe('insufficient_scope');
      const right = await h.call(method, path, { token: await h.token(undefined, scope), body });
      expect([401, 403]).not.toContain(right.status);
    },
  );

  it.each(described.filter((d) => d.scope === null && d.key.startsWith('GET')).map((d) => [d.key]))(
    '%s needs no token',
    async (key) => {
      const answer = await h.call('GET', key.split(' ')[1]!, { token: null });
      expect(answer.body?.error).not.toBe('missing_token');
      expect(answer.status).not.toBe(401);
    },
  );
});
