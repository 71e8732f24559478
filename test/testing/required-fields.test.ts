import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ALL_ROUTES } from '../../src/testing/control/serve.js';
import { OPERATIONS } from '../../src/testing/documents/operations.js';
import { REQUEST_SCHEMAS } from '../../src/testing/documents/schemas.js';
import { control } from '../mock-product/helpers.js';
import { type MockHarness, newOrder, paymentPath, settledPayment, useMock } from './helpers.js';

// Spec 7: a missing required field is 400 invalid_request, whatever schema construct the field has
// (a literal, an enum, a string, a number, a boolean). The required fields come from each route's
// own request schema, so a field or route added later is covered without touching this file; a
// route with a body but no sample below fails the first test.

const h = useMock();

type Body = Record<string, unknown>;
interface Target {
  path: string;
  body: Body;
  send(h: MockHarness, path: string, body: Body): Promise<{ status: number; body: { error: string } }>;
}

const api = (method: string) => (harness: MockHarness, path: string, body: Body) =>
  harness.call(method, path, { body });
const ctl = (harness: MockHarness, path: string, body: Body) =>
  control(harness, 'POST', path.replace('/_mock/v1', ''), body);

/** A valid request per operation with a JSON body, built on fresh records. */
const SAMPLES: Record<string, (h: MockHarness) => Promise<Target>> = {
  createOrder: async (harness) => ({
    path: '/pos/v1/orders',
    body: { location_id: harness.a().location, total_cents: 100 },
    send: api('POST'),
  }),
  createPayment: async (harness) => ({
    path: `/pos/v1/orders/${await newOrder(harness)}/payments`,
    body: { method: 'card', amount_cents: 100 },
    send: api('POST'),
  }),
  createRefund: async (harness) => ({
    path: `${paymentPath(await settledPayment(harness))}/refunds`,
    body: { amount_cents: 100, reason: 'other' },
    send: api('POST'),
  }),
  createLaunchToken: async (harness) => ({
    path: '/pos/v1/launch-tokens',
    body: { location_id: harness.a().location },
    send: api('POST'),
  }),
  exchangeLaunchToken: async () => ({
    path: '/pos/v1/public/launch-exchange',
    body: { launch_token: 'lt_unknown' },
    send: (harness, path, body) => harness.call('POST', path, { body, token: null }),
  }),
  createWebhookEndpoint: async (harness) => ({
    path: `/admin/v1/partners/${harness.a().partnerId}/webhook-endpoints`,
    body: { url: 'https://127.0.0.1:9/hooks' },
    send: api('POST'),
  }),
  advanceClock: async () => ({ path: '/_mock/v1/clock/advance', body: { ms: 1 }, send: ctl }),
  injectFault: async () => ({
    path: '/_mock/v1/faults',
    body: { path: '/pos/v1/locations', drip: { everyMs: 10 } },
    send: ctl,
  }),
  rejectRefund: async () => ({ path: '/_mock/v1/refunds/x/reject', body: { message: 'no' }, send: ctl }),
  createClient: async (harness) => ({
    path: '/_mock/v1/clients',
    body: { partner_id: harness.a().partnerId, tier: 'low' },
    send: ctl,
  }),
  createUserToken: async (harness) => ({
    path: '/_mock/v1/user-tokens',
    body: { partner_id: harness.a().partnerId },
    send: ctl,
  }),
  setMaintenance: async () => ({ path: '/_mock/v1/maintenance', body: { on: false }, send: ctl }),
};

/** Every operation that takes a JSON body, with its schema. */
const withBodies: { operationId: string; schema: z.ZodType }[] = [
  ...OPERATIONS.flatMap((op) =>
    'body' in op
      ? [{ operationId: op.operationId as string, schema: REQUEST_SCHEMAS[op.body] as z.ZodType }]
      : [],
  ),
  ...ALL_ROUTES.flatMap((r) => (r.body ? [{ operationId: r.operationId, schema: r.body }] : [])),
];

interface JsonSchema {
  required?: string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** The paths of every required field of the schema that the sample reaches (not into Level 3). */
function requiredPaths(schema: JsonSchema, sample: unknown, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const key of schema.required ?? []) out.push([...prefix, key]);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const value = (sample as Record<string, unknown> | undefined)?.[key];
    if (key === 'level3' || !value || typeof value !== 'object') continue;
    const objectSchema = child.properties ? child : child.anyOf?.find((s) => s.properties);
    if (objectSchema) out.push(...requiredPaths(objectSchema, value, [...prefix, key]));
  }
  return out;
}

function withValue(body: Body, path: string[], value: unknown): Body {
  const copy = structuredClone(body);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

describe('an absent required value is 400 invalid_request, on every route (spec 7)', () => {
  it('every operation with a JSON body has a sample here', () => {
    expect(withBodies.map((o) => o.operationId).filter((id) => !SAMPLES[id])).toEqual([]);
  });

  it.each(withBodies.map((o) => [o.operationId, o.schema] as const))('%s', async (operationId, schema) => {
    const target = await SAMPLES[operationId]!(h);
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const paths = requiredPaths(json, target.body);
    // The sample itself is well-formed: whatever it answers, it is not a 400 for its shape.
    const sample = await target.send(h, target.path, target.body);
    expect([sample.status, sample.body.error]).not.toEqual([400, 'invalid_request']);
    for (const path of paths) {
      for (const value of [undefined, null]) {
        const answer = await target.send(h, target.path, withValue(target.body, path, value));
        expect([path.join('.'), String(value), answer.status, answer.body.error]).toEqual([
          path.join('.'),
          String(value),
          400,
          'invalid_request',
        ]);
      }
    }
  });

  it('a payment without method (a literal) is 400 invalid_request naming the field', async () => {
    const orderId = await newOrder(h);
    for (const body of [{ amount_cents: 100 }, { method: null, amount_cents: 100 }]) {
      const answer = await h.call('POST', `/pos/v1/orders/${orderId}/payments`, { body });
      expect([answer.status, answer.body.error]).toEqual([400, 'invalid_request']);
      expect(answer.body.message).toContain('method: is required');
    }
    // A present value that breaks the rule stays a 422.
    const wrong = await h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
      body: { method: 'ach', amount_cents: 100 },
    });
    expect([wrong.status, wrong.body.error]).toEqual([422, 'validation_error']);
  });
});
