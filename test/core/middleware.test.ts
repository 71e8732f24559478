import { HttpResponse, http } from 'msw';
import { afterEach, expect, it, vi } from 'vitest';
import type { Call, Middleware } from '../../src/core/call/middleware.js';
import { NotFoundError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID, openOrderBody } from '../helpers/fixtures.js';
import { apiError, sequence, TOKEN_PREFIX } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const order = openOrderBody;

describeTransports('middleware', (t) => {
  afterEach(() => vi.restoreAllMocks());

  it('runs once per call (not per attempt), in order, around the whole call', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      sequence('get', '*/pos/v1/orders/:id', [
        () => apiError(502, 'bad_gateway'),
        () => HttpResponse.json({ ...order, request_id: 'req_2' }),
      ]),
    );
    const log: string[] = [];
    const seen: Call[] = [];
    const named =
      (name: string): Middleware =>
      async (call, next) => {
        log.push(`${name}>`);
        seen.push(call);
        const result = await next();
        log.push(`<${name} ${result.status} ${result.requestId} after ${call.attempts}`);
        return result;
      };
    const client = t.client({ middleware: [named('outer'), named('inner')] });
    const got = await client.orders.get(ORDER_ID);
    expect(got.order_id).toBe(ORDER_ID);
    expect(log).toEqual(['outer>', 'inner>', '<inner 200 req_2 after 2', '<outer 200 req_2 after 2']);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      route: '/pos/v1/orders/{order_id}',
      path: `/pos/v1/orders/${ORDER_ID}`,
      attempts: 2,
    });
    expect(seen[0]!.retries).toEqual([
      expect.objectContaining({ attempt: 1, reason: 'status', status: 502 }),
    ]);
    expect(t.requests('GET')).toHaveLength(2);
  });

  it('changes to call.headers go out with every attempt; the call never holds the token', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      sequence('get', '*/pos/v1/orders/:id', [
        () => apiError(503, 'service_unavailable', 'busy', { headers: { 'Retry-After': '0' } }),
        () => HttpResponse.json(order),
      ]),
    );
    const snapshots: string[] = [];
    const client = t.client({
      middleware: [
        async (call, next) => {
          call.headers['x-correlation-id'] = call.callId;
          try {
            return await next();
          } finally {
            snapshots.push(JSON.stringify(call));
          }
        },
      ],
    });
    const events: string[] = [];
    client.on('request', (e) => events.push(e.callId));
    await client.orders.get(ORDER_ID);
    const sent = t.requests('GET');
    expect(sent).toHaveLength(2);
    expect(sent.map((r) => r.headers['x-correlation-id'])).toEqual([events[0], events[0]]);
    expect(sent[0]!.headers.authorization).toMatch(/^Bearer /); // positive control: a token was sent
    expect(snapshots.join('')).not.toContain(TOKEN_PREFIX);
    expect(snapshots.join('')).not.toContain('authorization');
  });

  it('a middleware can replace the result, see the error, and short-circuit without sending', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => apiError(404, 'order_not_found')));
    const errors: unknown[] = [];
    const client = t.client({
      middleware: [
        async (call, next) => {
          if (call.path.endsWith('cached')) {
            return { data: { cached: true }, status: 200, requestId: undefined, headers: {} };
          }
          try {
            return await next();
          } catch (error) {
            errors.push(error);
            throw error;
          }
        },
      ],
    });
    expect(await caught(client.orders.get(ORDER_ID))).toBeInstanceOf(NotFoundError);
    expect(errors).toEqual([expect.any(NotFoundError)]);
    const cached = await client.request({
      method: 'GET',
      path: '/pos/v1/cached',
      retry: 'safe',
      response: (await import('zod')).z.unknown(),
    });
    expect(cached).toEqual({ cached: true });
    expect(t.requests('GET', '/pos/v1/cached')).toHaveLength(0);
  });

  it('next() twice is refused', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)));
    const client = t.client({
      middleware: [
        async (_call, next) => {
          await next();
          return next();
        },
      ],
    });
    expect(await caught(client.orders.get(ORDER_ID))).toMatchObject({
      message: expect.stringMatching(/twice/),
    });
    expect(t.requests('GET')).toHaveLength(1);
  });
});
