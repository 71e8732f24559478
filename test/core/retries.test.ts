import { HttpResponse, http } from 'msw';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { APIUserAbortError, InternalServerError, RateLimitError } from '../../src/core/errors/api-errors.js';
import type { RetryEvent } from '../../src/core/observe/events.js';
import { caught } from '../helpers/caught.js';
import { LOCATION_ID, ORDER_ID, orderCreated, paymentCreated } from '../helpers/fixtures.js';
import { apiError, sequence } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const Ok = z.looseObject({ ok: z.boolean() });
const get = { method: 'GET', path: '/pos/v1/thing', retry: 'safe', response: Ok } as const;
const ok = () => HttpResponse.json({ ok: true });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const paymentsPath = `/pos/v1/orders/${ORDER_ID}/payments`;

function nextRetry(client: {
  once(event: 'retry', fn: (e: RetryEvent) => void): unknown;
}): Promise<RetryEvent> {
  return new Promise((resolve) => client.once('retry', resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describeTransports('retries', (t) => {
  const thingCalls = () => t.requests('GET', '/pos/v1/thing').length;

  it('waits out a 429 Retry-After of 2 seconds, then succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    t.use(
      sequence('get', '*/pos/v1/thing', [
        () => apiError(429, 'rate_limit_exceeded', 'Slow down', { headers: { 'Retry-After': '2' } }),
        ok,
      ]),
    );
    const client = t.client();
    const retried = nextRetry(client);
    const result = client.request(get);
    expect(await retried).toMatchObject({ attempt: 1, delayMs: 2000, reason: 'status', status: 429 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(thingCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(thingCalls()).toBe(2);
  });

  it('waits out a 429 Retry-After given as an HTTP date', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-05-12T10:00:00Z'));
    const date = 'Tue, 12 May 2026 10:00:05 GMT';
    t.use(
      sequence('get', '*/pos/v1/thing', [
        () => apiError(429, 'rate_limit_exceeded', 'x', { headers: { 'Retry-After': date } }),
        ok,
      ]),
    );
    const client = t.client();
    const retried = nextRetry(client);
    const result = client.request(get);
    expect((await retried).delayMs).toBe(5000);
    await vi.advanceTimersByTimeAsync(4999);
    expect(thingCalls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('503 then 200 succeeds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(sequence('get', '*/pos/v1/thing', [() => apiError(503, 'service_unavailable'), ok]));
    await expect(t.client().request(get)).resolves.toEqual({ ok: true });
    expect(thingCalls()).toBe(2);
  });

  it.each([0, 1, 3])('respects maxRetries %i', async (maxRetries) => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(http.get('*/pos/v1/thing', () => apiError(500, 'internal_error')));
    const error = await caught(t.client({ maxRetries }).request(get));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(thingCalls()).toBe(maxRetries + 1);
  });

  it('a per-request maxRetries overrides the client one', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(http.get('*/pos/v1/thing', () => apiError(502, 'bad_gateway')));
    await expect(
      t.client({ maxRetries: 5 }).request({ ...get, options: { maxRetries: 1 } }),
    ).rejects.toThrow();
    expect(thingCalls()).toBe(2);
  });

  it('a Retry-After beyond the deadline throws RateLimitError at once with retryAfterMs', async () => {
    t.use(
      http.get('*/pos/v1/thing', () =>
        apiError(429, 'rate_limit_exceeded', 'x', { headers: { 'Retry-After': '30' } }),
      ),
    );
    const client = t.client({ deadlineMs: 10_000 });
    const retries: RetryEvent[] = [];
    client.on('retry', (e) => retries.push(e));
    const error = await caught(client.request(get));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfterMs: 30_000 });
    expect((error as Error).message).toContain('beyond the deadline');
    expect(retries).toEqual([]);
    expect(thingCalls()).toBe(1);
  });

  it('an abort during a backoff sleep rejects at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    t.use(
      http.get('*/pos/v1/thing', () =>
        apiError(503, 'service_unavailable', 'x', { headers: { 'Retry-After': '20' } }),
      ),
    );
    const client = t.client();
    const controller = new AbortController();
    const retried = nextRetry(client);
    const result = client.request({ ...get, options: { signal: controller.signal } });
    await retried;
    controller.abort();
    await expect(result).rejects.toBeInstanceOf(APIUserAbortError);
    await expect(result).rejects.toThrow(/^Request was aborted\.$/);
    expect(thingCalls()).toBe(1);
  });

  it('orders.create sends one generated Idempotency-Key on every attempt', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      sequence('post', '*/pos/v1/orders', [
        () => apiError(500, 'internal_error'),
        () => apiError(503, 'service_unavailable'),
        orderCreated,
      ]),
    );
    await t.client().orders.create({ location_id: LOCATION_ID, total_cents: 12_500 });
    const keys = t.requests('POST', '/pos/v1/orders').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
  });

  it("orders.create sends the caller's Idempotency-Key on every attempt; each call gets its own key", async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(sequence('post', '*/pos/v1/orders', [() => apiError(502, 'bad_gateway'), orderCreated]));
    const client = t.client();
    const key = '9b2e6c1a-4d3f-4e5a-8b7c-6d5e4f3a2b1c';
    await client.orders.create({ location_id: LOCATION_ID, total_cents: 100 }, { idempotencyKey: key });
    await client.orders.create({ location_id: LOCATION_ID, total_cents: 100 });
    const keys = t.requests('POST', '/pos/v1/orders').map((r) => r.headers['idempotency-key']);
    expect(keys.slice(0, 2)).toEqual([key, key]);
    expect(keys[2]).toMatch(UUID);
    expect(keys[2]).not.toBe(key);
  });

  it.each([
    ['a 500', () => apiError(500, 'internal_error')],
    ['a 503', () => apiError(503, 'service_unavailable', 'x', { headers: { 'Retry-After': '0' } })],
    [
      'a 201 with a truncated body',
      () =>
        new HttpResponse('{"payment_id": "7a6b', {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    ],
  ])('payments.create is not retried after %s, and says the outcome is unknown', async (_name, answer) => {
    t.use(http.post('*/pos/v1/orders/:id/payments', answer));
    const error = await caught(t.client().payments.create(ORDER_ID, { method: 'card', amount_cents: 500 }));
    expect(error).toMatchObject({ outcomeUnknown: true });
    expect((error as Error).message).toMatch(/outcome is unknown/);
    expect((error as Error).message).toContain(`client.orders.get('${ORDER_ID}')`);
    expect(t.requests('POST', paymentsPath)).toHaveLength(1);
  });

  it('payments.create IS retried after a 429', async () => {
    t.use(
      sequence('post', '*/pos/v1/orders/:id/payments', [
        () => apiError(429, 'rate_limit_exceeded', 'x', { headers: { 'Retry-After': '0' } }),
        paymentCreated,
      ]),
    );
    const payment = await t.client().payments.create(ORDER_ID, { method: 'card', amount_cents: 12_500 });
    expect(payment.status).toBe('pending');
    expect(t.requests('POST', paymentsPath)).toHaveLength(2);
  });

  it('refunds.create is not retried after a 502 and says the outcome is unknown', async () => {
    const refunds = `*/pos/v1/orders/:id/payments/:pid/refunds`;
    t.use(http.post(refunds, () => apiError(502, 'bad_gateway')));
    const error = await caught(
      t.client().refunds.create(ORDER_ID, '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d', { amount_cents: 100 }),
    );
    expect(error).toMatchObject({ status: 502, outcomeUnknown: true });
    expect(t.requests('POST').filter((r) => r.path.endsWith('/refunds'))).toHaveLength(1);
  });

  it('payments.void (idempotent on the service) is retried after a 500', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const voidBody = {
      payment_id: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d',
      status: 'voided',
      voided_at: '2026-05-12T10:00:00Z',
    };
    t.use(
      sequence('post', '*/pos/v1/orders/:id/payments/:pid/void', [
        () => apiError(500, 'internal_error'),
        () => HttpResponse.json(voidBody),
      ]),
    );
    await expect(t.client().payments.void(ORDER_ID, voidBody.payment_id)).resolves.toMatchObject({
      status: 'voided',
    });
  });
});
