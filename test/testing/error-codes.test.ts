import { describe, expect, it } from 'vitest';
import { serveMock } from '../helpers/loopback-mock.js';
import {
  type Answer,
  type MockHarness,
  mintToken,
  newOrder,
  newPayment,
  paymentPath,
  read,
  settledPayment,
  useMock,
} from './helpers.js';

const h = useMock();

const level3 = (overrides: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
  tax_amount_cents: 80,
  line_items: [
    {
      description: 'Diesel',
      quantity: 10,
      unit_price_cents: 100,
      total_cents: 1000,
      tax_amount_cents: 80,
      ...line,
    },
  ],
  ...overrides,
});

/** Every error code of spec section 7 (plus 503 `service_unavailable`), each with how to trigger it. */
const CASES: { code: string; status: number; why: string; trigger: (h: MockHarness) => Promise<Answer> }[] = [
  {
    code: 'invalid_request',
    status: 400,
    why: 'malformed JSON',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        rawBody: '{"location_id": ',
        headers: { 'content-type': 'application/json' },
      }),
  },
  {
    code: 'invalid_request',
    status: 400,
    why: 'a missing required field',
    trigger: (h) => h.call('POST', '/pos/v1/orders', { body: { location_id: h.a().location } }),
  },
  {
    code: 'invalid_request',
    status: 413,
    why: 'a body over 1 MiB',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: { location_id: h.a().location, total_cents: 100, description: 'x'.repeat(1024 * 1024) },
      }),
  },
  {
    code: 'invalid_scope',
    status: 400,
    why: 'a token request for an unknown scope',
    trigger: (h) => mintToken(h.server.authUrl, h.mock.credentials, 'svc/payments:create svc/everything'),
  },
  {
    code: 'invalid_scope',
    status: 400,
    why: 'a token request for a scope the client was not granted',
    trigger: (h) => mintToken(h.server.authUrl, h.mock.fixtures.chargeOnlyClient, 'svc/payments:refund'),
  },
  {
    code: 'level3_tax_mismatch',
    status: 400,
    why: 'tax_amount_cents 2 cents off the line taxes',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: { location_id: h.a().location, total_cents: 1080, level3: level3({ tax_amount_cents: 82 }) },
      }),
  },
  {
    code: 'level3_validation_failed',
    status: 400,
    why: 'a line description of 41 characters',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: {
          location_id: h.a().location,
          total_cents: 1080,
          level3: level3({}, { description: 'd'.repeat(41) }),
        },
      }),
  },
  {
    code: 'level3_validation_failed',
    status: 400,
    why: 'a payment-level quantity of 0',
    trigger: async (h) => {
      const orderId = await newOrder(h);
      return h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
        body: { method: 'card', amount_cents: 100, level3: level3({}, { quantity: 0 }) },
      });
    },
  },
  {
    code: 'amount_exceeds_order_total',
    status: 400,
    why: 'a payment above the remaining unpaid total',
    trigger: async (h) => {
      const { orderId } = await newPayment(h, 6_000, 10_000);
      return h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
        body: { method: 'card', amount_cents: 4_001 },
      });
    },
  },
  {
    code: 'missing_token',
    status: 401,
    why: 'no Authorization header',
    trigger: (h) => h.call('GET', '/pos/v1/locations', { token: null }),
  },
  {
    code: 'invalid_token',
    status: 401,
    why: 'a malformed JWT',
    trigger: (h) => h.call('GET', '/pos/v1/locations', { token: 'not-a-jwt' }),
  },
  {
    code: 'invalid_client',
    status: 401,
    why: 'a wrong client secret at the token endpoint',
    trigger: (h) =>
      mintToken(h.server.authUrl, { clientId: h.mock.credentials.clientId, clientSecret: 'wrong' }),
  },
  {
    code: 'token_expired',
    status: 401,
    why: 'a token used after its 3600 s on the mock clock',
    trigger: async (h) => {
      const token = await h.token();
      h.mock.clock.advance(3600 * 1000);
      return h.call('GET', '/pos/v1/locations', { token });
    },
  },
  {
    code: 'client_revoked',
    status: 401,
    why: 'the client is revoked after its token was issued',
    trigger: async (h) => {
      const token = await h.token();
      h.mock.revokeClient(h.mock.credentials.clientId);
      return h.call('GET', '/pos/v1/locations', { token });
    },
  },
  {
    code: 'client_revoked',
    status: 401,
    why: 'a revoked client asks for a token',
    trigger: (h) => mintToken(h.server.authUrl, h.mock.fixtures.revokedClient),
  },
  {
    code: 'insufficient_scope',
    status: 403,
    why: 'a token without svc/payments:refund creates a refund',
    trigger: async (h) => {
      const ids = await settledPayment(h);
      const token = await h.token(h.mock.fixtures.chargeOnlyClient);
      return h.call('POST', `${paymentPath(ids)}/refunds`, { token, body: { amount_cents: 100 } });
    },
  },
  {
    code: 'location_out_of_scope',
    status: 403,
    why: "an order at another partner's location",
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: { location_id: h.mock.fixtures.partners[1]!.locations.payments, total_cents: 100 },
      }),
  },
  {
    code: 'permission_denied',
    status: 403,
    why: "registering a webhook endpoint for another partner's id",
    trigger: (h) =>
      h.call('POST', `/admin/v1/partners/${h.mock.fixtures.partners[1]!.partnerId}/webhook-endpoints`, {
        body: { url: 'https://hooks.example.com/payments' },
      }),
  },
  {
    code: 'order_not_found',
    status: 404,
    why: 'an unknown order id',
    trigger: (h) => h.call('GET', '/pos/v1/orders/00000000-0000-4000-8000-00000000dead'),
  },
  {
    code: 'payment_not_found',
    status: 404,
    why: 'a payment id of another order',
    trigger: async (h) => {
      const first = await newPayment(h);
      const otherOrder = await newOrder(h);
      return h.call('GET', paymentPath({ orderId: otherOrder, paymentId: first.paymentId }));
    },
  },
  {
    code: 'location_not_found',
    status: 404,
    why: 'an unknown location id',
    trigger: (h) => h.call('GET', '/pos/v1/locations/00000000-0000-4000-8000-00000000beef'),
  },
  {
    code: 'order_already_paid',
    status: 409,
    why: 'a payment on a fully paid order',
    trigger: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.approve(ids.paymentId);
      return h.call('POST', `/pos/v1/orders/${ids.orderId}/payments`, {
        body: { method: 'card', amount_cents: 1 },
      });
    },
  },
  {
    code: 'order_not_open',
    status: 409,
    why: 'a payment on an order whose only payment was voided',
    trigger: async (h) => {
      const ids = await newPayment(h);
      await h.call('POST', `${paymentPath(ids)}/void`);
      return h.call('POST', `/pos/v1/orders/${ids.orderId}/payments`, {
        body: { method: 'card', amount_cents: 1 },
      });
    },
  },
  {
    code: 'payment_already_settled',
    status: 409,
    why: 'voiding a settled payment',
    trigger: async (h) => h.call('POST', `${paymentPath(await settledPayment(h))}/void`),
  },
  {
    code: 'refund_window_expired',
    status: 409,
    why: 'a refund 181 days after settlement',
    trigger: async (h) => {
      const ids = await settledPayment(h);
      h.mock.clock.advance(181 * 24 * 3_600_000);
      return h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 100 } });
    },
  },
  {
    code: 'idempotency_conflict',
    status: 409,
    why: 'the same Idempotency-Key with a different body',
    trigger: async (h) => {
      const headers = { 'idempotency-key': '6f1c2d3e-4b5a-4c6d-8e7f-001122334455' };
      await h.call('POST', '/pos/v1/orders', {
        headers,
        body: { location_id: h.a().location, total_cents: 100 },
      });
      return h.call('POST', '/pos/v1/orders', {
        headers,
        body: { location_id: h.a().location, total_cents: 200 },
      });
    },
  },
  {
    code: 'validation_error',
    status: 422,
    why: 'a refund above the refundable remainder',
    trigger: async (h) => {
      const ids = await settledPayment(h, 1_000);
      await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 600 } });
      return h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 401 } });
    },
  },
  {
    code: 'validation_error',
    status: 422,
    why: 'an order at a location without the payments feature',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: { location_id: h.mock.fixtures.partners[0]!.locations.noPayments, total_cents: 100 },
      }),
  },
  {
    code: 'validation_error',
    status: 422,
    why: 'an order at an inactive location',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', {
        body: { location_id: h.mock.fixtures.partners[0]!.locations.inactive, total_cents: 100 },
      }),
  },
  {
    code: 'validation_error',
    status: 422,
    why: 'total_cents of 0',
    trigger: (h) =>
      h.call('POST', '/pos/v1/orders', { body: { location_id: h.a().location, total_cents: 0 } }),
  },
  {
    code: 'rate_limit_exceeded',
    status: 429,
    why: 'the 11th request in a second from a low-tier client (burst 10)',
    trigger: async (h) => {
      const token = await h.token(h.mock.fixtures.lowTierClient);
      for (let i = 0; i < 10; i++) await h.call('GET', '/pos/v1/locations?limit=1', { token });
      return h.call('GET', '/pos/v1/locations?limit=1', { token });
    },
  },
  {
    code: 'internal_error',
    status: 500,
    why: 'an injected fault',
    trigger: (h) => {
      h.mock.failNext({ path: '/pos/v1/locations', status: 500 });
      return h.call('GET', '/pos/v1/locations');
    },
  },
  {
    code: 'service_unavailable',
    status: 503,
    why: 'maintenance mode',
    trigger: async (h) => {
      const token = await h.token();
      h.mock.setMaintenance(true);
      return h.call('GET', '/pos/v1/locations', { token });
    },
  },
];

describe('every error code of spec section 7', () => {
  it.each(CASES.map((c) => [c.code, c.why, c] as const))('%s: %s', async (_code, _why, c) => {
    const answer = await c.trigger(h);
    expect(answer.status).toBe(c.status);
    expect(answer.body).toMatchObject({ error: c.code, message: expect.any(String) });
    expect(answer.body.request_id).toBe(answer.headers.get('x-request-id'));
  });

  it('spec_not_available (404) when the mock is built with specs: false', async () => {
    const { server, stop } = await serveMock({ specs: false });
    try {
      for (const name of ['openapi.json', 'asyncapi.json']) {
        const answer = await read(await fetch(`${server.url}/pos/v1/.well-known/${name}`));
        expect(answer.status).toBe(404);
        expect(answer.body.error).toBe('spec_not_available');
      }
    } finally {
      await stop();
    }
  });

  it('rate_limit_exceeded carries Retry-After, and the bucket refills on the mock clock', async () => {
    const token = await h.token(h.mock.fixtures.lowTierClient);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await h.call('GET', '/pos/v1/locations?limit=1', { token })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    const limited = await h.call('GET', '/pos/v1/locations?limit=1', { token });
    expect(limited.headers.get('retry-after')).toBe('1');
    h.mock.clock.advance(1000);
    expect((await h.call('GET', '/pos/v1/locations?limit=1', { token })).status).toBe(200);
  });
});
