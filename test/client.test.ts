import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../src/client.js';
import { ConfigurationError, PaymentsError } from '../src/core/errors/api-errors.js';
import type { RequestEvent, ResponseEvent } from '../src/core/observe/events.js';
import { VERSION } from '../src/version.js';
import { LOCATION_ID, ORDER_ID, orderCreated, PAYMENT_ID, paymentBody } from './helpers/fixtures.js';
import { TEST_CLIENT_SECRET, TOKEN_PREFIX } from './helpers/handlers.js';
import { describeTransports } from './helpers/transports.js';

const creds = { clientId: 'id', clientSecret: 'secret-value-123', baseUrl: 'https://api.example.com' };

describe('PaymentsClient configuration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it.each([
    ['no credentials and no accessToken', { baseUrl: 'https://api.example.com' }, 'clientId'],
    ['a client id without a secret', { clientId: 'id', baseUrl: 'https://api.example.com' }, 'clientSecret'],
    ['no baseUrl', { clientId: 'id', clientSecret: 's' }, 'baseUrl'],
    ['an http:// baseUrl off loopback', { ...creds, baseUrl: 'http://api.example.com' }, 'baseUrl'],
    ['a baseUrl that is not a URL', { ...creds, baseUrl: 'api.example.com' }, 'baseUrl'],
    ['an http:// authUrl off loopback', { ...creds, authUrl: 'http://10.0.0.1' }, 'authUrl'],
    ['a negative maxRetries', { ...creds, maxRetries: -1 }, 'maxRetries'],
    ['a fractional maxRetries', { ...creds, maxRetries: 1.5 }, 'maxRetries'],
    ['a zero timeoutMs', { ...creds, timeoutMs: 0 }, 'timeoutMs'],
    ['an infinite deadlineMs', { ...creds, deadlineMs: Number.POSITIVE_INFINITY }, 'deadlineMs'],
    ['an empty scope list', { ...creds, scopes: [] }, 'scopes'],
    ['a scope with a space', { ...creds, scopes: ['payments:read locations:read'] }, 'scopes'],
    ['an empty accessToken', { baseUrl: 'https://api.example.com', accessToken: '' }, 'accessToken'],
    ['an unknown logLevel', { ...creds, logLevel: 'verbose' as never }, 'logLevel'],
    ['a proxy that is not a URL', { ...creds, proxy: 'corp-proxy:8080' }, 'proxy'],
  ])('rejects %s with a ConfigurationError naming the option', (_name, options, option) => {
    vi.stubEnv('PAYMENTS_CLIENT_ID', '');
    vi.stubEnv('PAYMENTS_CLIENT_SECRET', '');
    vi.stubEnv('PAYMENTS_BASE_URL', '');
    vi.stubEnv('PAYMENTS_AUTH_URL', '');
    const error = (() => {
      try {
        new PaymentsClient(options);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(PaymentsError);
    expect(error).toMatchObject({ option });
    expect((error as Error).message).toContain(`\`${option}\``);
  });

  it.each([
    'http://127.0.0.1:4010',
    'http://127.8.9.10',
    'http://localhost:3000',
    'http://[::1]:8080',
    'https://api.example.com',
  ])('accepts %s as baseUrl', (baseUrl) => {
    expect(() => new PaymentsClient({ ...creds, baseUrl })).not.toThrow();
  });

  it('reads credentials and URLs from the environment', () => {
    vi.stubEnv('PAYMENTS_CLIENT_ID', 'env-id');
    vi.stubEnv('PAYMENTS_CLIENT_SECRET', 'env-secret-xyz');
    vi.stubEnv('PAYMENTS_BASE_URL', 'https://env.example.com/pos/v1');
    vi.stubEnv('PAYMENTS_AUTH_URL', 'https://auth.example.com/');
    expect(new PaymentsClient().toJSON()).toMatchObject({
      clientId: 'env-id',
      baseUrl: 'https://env.example.com',
      authUrl: 'https://auth.example.com',
      scopes: ['svc/payments:create', 'svc/payments:read', 'svc/locations:read'],
      maxRetries: 2,
      timeoutMs: 30_000,
    });
  });

  it('util.inspect and JSON.stringify of the client show no secret', () => {
    const client = new PaymentsClient({ ...creds, clientSecret: TEST_CLIENT_SECRET });
    const tokenClient = new PaymentsClient({ baseUrl: creds.baseUrl, accessToken: `${TOKEN_PREFIX}-user` });
    for (const text of [
      inspect(client, { depth: 10 }),
      JSON.stringify(client),
      inspect(tokenClient),
      JSON.stringify(tokenClient),
    ]) {
      expect(text).toContain('api.example.com');
      expect(text).not.toContain(TEST_CLIENT_SECRET);
      expect(text).not.toContain(TOKEN_PREFIX);
    }
    expect(inspect(client.orders, { depth: 10 })).not.toContain(TEST_CLIENT_SECRET);
  });
});

describeTransports('PaymentsClient requests', (t) => {
  it('sends Authorization, Accept, User-Agent, default and per-call headers; JSON bodies with Content-Type', async () => {
    t.use(http.post('*/pos/v1/orders', orderCreated));
    const client = t.client({ defaultHeaders: { 'X-Partner-Trace': 'abc', Accept: 'application/json' } });
    await client.orders.create(
      { location_id: LOCATION_ID, total_cents: 12_500 },
      { headers: { 'X-Partner-Trace': 'per-call' } },
    );
    const [sent] = t.requests('POST', '/pos/v1/orders');
    expect(sent?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN_PREFIX}-1`,
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': `partner-payments/${VERSION} node/${process.versions.node}`,
      'x-partner-trace': 'per-call',
    });
    expect(JSON.parse(sent?.body ?? '')).toEqual({ location_id: LOCATION_ID, total_cents: 12_500 });
  });

  it('builds the URL from baseUrl, the path and the query, and sends no body on GET', async () => {
    t.use(
      http.get('*/pos/v1/locations', () => HttpResponse.json({ items: [], total: 0, limit: 5, offset: 10 })),
    );
    const client = t.client();
    const paths: string[] = [];
    client.on('request', (e) => paths.push(e.path));
    client.on('response', (e) => paths.push(e.path));
    await client.locations.list({ limit: 5, offset: 10, search: 'north & south' });
    // Events name the path only: a query value may be a credential. The token mint is not a call.
    expect(new Set(paths)).toEqual(new Set(['/pos/v1/locations']));
    const [sent] = t.requests('GET', '/pos/v1/locations');
    expect(Object.fromEntries(sent?.query ?? [])).toEqual({
      limit: '5',
      offset: '10',
      search: 'north & south',
    });
    expect(sent?.body).toBe('');
    expect(sent?.headers['content-type']).toBeUndefined();
  });

  it('emits request and response events with method, path, status, attempt, duration and request id', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id/payments/:pid', () =>
        HttpResponse.json(paymentBody, { headers: { 'X-Request-Id': 'req-abc' } }),
      ),
    );
    const client = t.client();
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    client.on('request', (e) => requests.push(e));
    client.on('response', (e) => responses.push(e));
    await client.payments.get(ORDER_ID, PAYMENT_ID);
    const path = `/pos/v1/orders/${ORDER_ID}/payments/${PAYMENT_ID}`;
    const route = '/pos/v1/orders/{order_id}/payments/{payment_id}';
    expect(requests).toContainEqual({ callId: expect.any(String), method: 'GET', path, route, attempt: 1 });
    expect(responses).toContainEqual({
      callId: requests[0]!.callId,
      method: 'GET',
      path,
      route,
      status: 200,
      attempt: 1,
      durationMs: expect.any(Number),
      requestId: 'req-abc',
    });
  });

  it('awaitPaymentResult polls the payment until it leaves pending', async () => {
    let reads = 0;
    t.use(
      http.get('*/pos/v1/orders/:id/payments/:pid', () => {
        reads += 1;
        return HttpResponse.json({ ...paymentBody, status: reads < 2 ? 'pending' : 'approved' });
      }),
    );
    const result = await t.client().awaitPaymentResult(ORDER_ID, PAYMENT_ID, { intervalMs: 1 });
    expect(result.status).toBe('approved');
    expect(t.requests('GET', `/pos/v1/orders/${ORDER_ID}/payments/${PAYMENT_ID}`)).toHaveLength(2);
  });

  it('writes debug lines to the logger', async () => {
    t.use(http.get('*/pos/v1/thing', () => HttpResponse.json({})));
    const lines: string[] = [];
    const push = (line: string) => lines.push(line);
    const client = t.client({
      logger: { debug: push, info: push, warn: push, error: push },
      logLevel: 'debug',
    });
    await client.request({
      method: 'GET',
      path: '/pos/v1/thing',
      retry: 'safe',
      response: z.looseObject({}),
    });
    expect(lines).toContain('[partner-payments] GET /pos/v1/thing (attempt 1)');
    expect(lines.some((l) => /GET \/pos\/v1\/thing -> 200/.test(l))).toBe(true);
  });
});
