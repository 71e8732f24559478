import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockService } from '../../src/testing/index.js';
import { read } from './helpers.js';

const mock = createMockService({
  autoProcess: { approveAfterMs: 1_500, settleAfterMs: 5_000, refundAfterMs: 2_000 },
  clock: { realTime: false },
});
const server = setupServer(...mock.handlers);
const { baseUrl, authUrl, clientId, clientSecret } = mock.clientOptions();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

async function token(): Promise<string> {
  const answer = await fetch(`${authUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

async function api(method: string, path: string, bearer: string, body?: unknown) {
  return read(
    await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

describe('in-process (msw setupServer) on any origin', () => {
  it('answers on https://api.payments.test and https://auth.payments.test, building URLs from that origin', async () => {
    const bearer = await token();
    const location = mock.fixtures.partners[0]!.locations.payments;
    const order = await api('POST', '/pos/v1/orders', bearer, {
      location_id: location,
      total_cents: 100,
      return_url: 'https://shop.example.com/r',
      cancel_url: 'https://shop.example.com/c',
    });
    expect(order.status).toBe(201);
    expect(order.body.hosted_checkout_url).toMatch(
      /^https:\/\/api\.payments\.test\/pos\/v1\/public\/hosted-checkout\?token=/,
    );
  });

  it('unknown paths under /pos/v1 answer 404 JSON instead of passing through', async () => {
    const answer = await api('GET', '/pos/v1/unknown', await token());
    expect([answer.status, answer.body.error]).toEqual([404, 'not_found']);
  });

  it('failNext matches method, path (RegExp) and times, with Retry-After', async () => {
    const bearer = await token();
    mock.failNext({ method: 'GET', path: /^\/pos\/v1\/locations/, status: 429, retryAfter: 7, times: 2 });
    const first = await api('GET', '/pos/v1/locations', bearer);
    const second = await api('GET', '/pos/v1/locations', bearer);
    const third = await api('GET', '/pos/v1/locations', bearer);
    expect([first.status, first.body.error, first.headers.get('retry-after')]).toEqual([
      429,
      'rate_limit_exceeded',
      '7',
    ]);
    expect(second.status).toBe(429);
    expect(third.status).toBe(200);
  });

  it('failNext with a custom error code, and only on the matching method', async () => {
    const bearer = await token();
    mock.failNext({
      method: 'POST',
      path: '/pos/v1/orders',
      status: 503,
      error: 'processor_outage',
      message: 'down',
    });
    expect((await api('GET', '/pos/v1/locations', bearer)).status).toBe(200);
    const failed = await api('POST', '/pos/v1/orders', bearer, {});
    expect(failed.body).toMatchObject({ error: 'processor_outage', message: 'down' });
  });

  it('demo mode approves after 1.5 s, declines amounts ending in 13, settles and confirms refunds on the mock clock', async () => {
    const bearer = await token();
    const location = mock.fixtures.partners[0]!.locations.payments;
    const pay = async (amount: number) => {
      const order = await api('POST', '/pos/v1/orders', bearer, {
        location_id: location,
        total_cents: amount,
      });
      const payment = await api('POST', `/pos/v1/orders/${order.body.order_id}/payments`, bearer, {
        method: 'card',
        amount_cents: amount,
      });
      return `/pos/v1/orders/${order.body.order_id}/payments/${payment.body.payment_id}`;
    };
    const good = await pay(1_000);
    const bad = await pay(1_013);
    mock.clock.advance(1_499);
    expect((await api('GET', good, bearer)).body.status).toBe('pending');
    mock.clock.advance(1);
    expect((await api('GET', good, bearer)).body.status).toBe('approved');
    expect((await api('GET', bad, bearer)).body.status).toBe('declined');
    mock.clock.advance(5_000);
    expect((await api('GET', good, bearer)).body.status).toBe('settled');
    const refund = await api('POST', `${good}/refunds`, bearer, { amount_cents: 1_000 });
    mock.clock.advance(2_000);
    expect((await api('GET', `${good}/refunds/${refund.body.refund_id}`, bearer)).body.status).toBe(
      'approved',
    );
    expect(mock.webhooks.events().map((e) => e.event_kind)).toEqual([
      'payment.approved',
      'payment.refunded',
      'payment.reversal_settled',
    ]);
  });
});
