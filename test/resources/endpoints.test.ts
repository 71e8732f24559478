// One table says what each endpoint of spec 4 is (src/resources/endpoints.ts), and the mock serves
// the same endpoints from its own table (src/testing/documents/operations.ts): the two are held equal
// here, row by row (method, route, scope, retry class against the mock's idempotency), and every
// resource method is shown to send exactly its row. The comparison also runs on a planted defect,
// which it must report. No network: a recording requester stands in for the client.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOKEN_ROUTE } from '../../src/core/auth/strategies.js';
import { APIPromise, responseMeta } from '../../src/core/call/api-promise.js';
import type { Requester } from '../../src/core/call/requester.js';
import type { RequestSpec } from '../../src/core/types.js';
import { ENDPOINTS, type Endpoint, requestOf } from '../../src/resources/endpoints.js';
import { LaunchTokens } from '../../src/resources/launch-tokens.js';
import { Locations } from '../../src/resources/locations.js';
import { Orders } from '../../src/resources/orders.js';
import { Payments } from '../../src/resources/payments.js';
import { Refunds } from '../../src/resources/refunds.js';
import { Specs } from '../../src/resources/specs.js';
import { WebhookEndpoints } from '../../src/resources/webhook-endpoints.js';
import { OPERATIONS, type Operation } from '../../src/testing/documents/operations.js';

/** The mock's operations the SDK sends no request of its own to: pages a browser opens, the token. */
const NOT_REQUESTS: Record<string, string> = {
  hostedCheckoutPage: 'the hosted checkout page, opened by the shopper’s browser',
  payHostedCheckout: 'the hosted checkout form, posted by the shopper’s browser',
  launchPage: 'the POS launch page, opened by the user’s browser',
  mintToken: 'the token endpoint of spec 5, on the auth URL: the core’s auth mints it (TOKEN_ROUTE)',
};

/** Where the SDK's table and the mock's differ, one line each; empty when they agree. */
function differences(sdk: Record<string, Endpoint>, mock: readonly Operation[]): string[] {
  const out: string[] = [];
  const byId = new Map(mock.map((op) => [op.operationId, op]));
  for (const [id, e] of Object.entries(sdk)) {
    const op = byId.get(id);
    if (!op) {
      out.push(`${id}: the mock has no such operation`);
      continue;
    }
    if (op.method !== e.method.toLowerCase()) out.push(`${id}: method ${e.method}, the mock's ${op.method}`);
    if (op.path !== e.route) out.push(`${id}: route ${e.route}, the mock's ${op.path}`);
    if (op.scope !== (e.scope ?? null)) out.push(`${id}: scope ${e.scope}, the mock's ${op.scope}`);
    // A POST is retried with a key only where the service keeps one (spec 4.1: orders alone).
    const keyed = op.idempotent === true;
    if ((e.retry === 'keyed') !== keyed) out.push(`${id}: retry ${e.retry}, the mock idempotent: ${keyed}`);
    if (e.method === 'GET' && e.retry !== 'safe') out.push(`${id}: a read retried as ${e.retry}`);
  }
  for (const op of mock) {
    if (!(op.operationId in sdk) && !(op.operationId in NOT_REQUESTS))
      out.push(`${op.operationId}: served by the mock, in neither table of the SDK`);
  }
  return out;
}

describe('the endpoint table (src/resources/endpoints.ts)', () => {
  it('equals the mock’s operation table, row by row', () => {
    expect(differences(ENDPOINTS, OPERATIONS)).toEqual([]);
    const token = OPERATIONS.find((op) => op.operationId === 'mintToken');
    expect(token?.path).toBe(TOKEN_ROUTE);
  });

  it('reports a planted difference (the control)', () => {
    const planted = {
      ...ENDPOINTS,
      getOrder: { ...ENDPOINTS.getOrder, scope: 'svc/locations:read' as const },
    };
    expect(differences(planted, OPERATIONS)).toEqual([
      "getOrder: scope svc/locations:read, the mock's svc/payments:read",
    ]);
    const unlisted: Operation[] = [
      ...OPERATIONS,
      { ...(OPERATIONS[0] as Operation), operationId: 'listOrders' },
    ];
    expect(differences(ENDPOINTS, unlisted)).toEqual([
      'listOrders: served by the mock, in neither table of the SDK',
    ]);
  });

  it('is what every resource method sends: its method, route, scope and retry class', async () => {
    const sent: RequestSpec[] = [];
    const requester: Requester = {
      request: (spec) => {
        sent.push(spec);
        return APIPromise.from(Promise.resolve({} as never), responseMeta());
      },
    };
    const id = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';
    const location = { location_id: id, total_cents: 100 };
    const calls: [keyof typeof ENDPOINTS, () => Promise<unknown>][] = [
      ['createOrder', () => new Orders(requester).create(location)],
      ['getOrder', () => new Orders(requester).get(id)],
      ['createPayment', () => new Payments(requester).create(id, { method: 'card', amount_cents: 100 })],
      ['getPayment', () => new Payments(requester).get(id, id)],
      ['voidPayment', () => new Payments(requester).void(id, id)],
      ['createRefund', () => new Refunds(requester).create(id, id, { amount_cents: 100 })],
      ['getRefund', () => new Refunds(requester).get(id, id, id)],
      ['listLocations', async () => await new Locations(requester).list()],
      ['getLocation', () => new Locations(requester).get(id)],
      [
        'createLaunchToken',
        () => new LaunchTokens(requester).create({ location_id: id, role_slug: 'location_manager' }),
      ],
      ['exchangeLaunchToken', () => new LaunchTokens(requester).exchange('lt_planted')],
      ['getOpenApiDocument', () => new Specs(requester).openapi()],
      ['getAsyncApiDocument', () => new Specs(requester).asyncapi()],
      [
        'createWebhookEndpoint',
        () => new WebhookEndpoints(requester).create(id, { url: 'https://partner.example/hooks' }),
      ],
    ];
    expect(calls.map(([name]) => name).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    for (const [name, call] of calls) {
      sent.length = 0;
      await call();
      const e: Endpoint = ENDPOINTS[name];
      const spec = sent[0] as RequestSpec & { intent?: { kind: string } };
      expect({ name, count: sent.length, method: spec.method, route: spec.route, scope: spec.scope }).toEqual(
        {
          name,
          count: 1,
          method: e.method,
          route: e.route,
          scope: e.scope,
        },
      );
      expect(spec.retry).toBe(e.retry);
      expect(spec.auth === false).toBe(e.scope === undefined);
      expect(spec.intent?.kind).toBe(e.intent);
      // The path is the route with each parameter filled in (and encoded).
      expect(spec.path).toBe(e.route.replace(/\{\w+\}/g, id));
    }
  });

  it('encodes a path parameter: a value never adds a segment or a query', () => {
    const spec = requestOf(ENDPOINTS.getRefund, z.object({}), undefined, ['a/../b', 'c?d=e', 'f#g']);
    expect(spec.path).toBe('/pos/v1/orders/a%2F..%2Fb/payments/c%3Fd%3De/refunds/f%23g');
    expect(spec.route).toBe('/pos/v1/orders/{order_id}/payments/{payment_id}/refunds/{refund_id}');
  });
});
