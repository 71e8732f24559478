// Real timers only. (undici runs its keep-alive and its long timeouts on one shared timer; once a
// test fakes setTimeout, that timer stays fake for the rest of the file's process.)
import { http } from 'msw';
import { expect, it, vi } from 'vitest';
import { z } from 'zod';
import { APIConnectionTimeoutError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID } from '../helpers/fixtures.js';
import { describeTransports } from '../helpers/transports.js';

const Ok = z.looseObject({ ok: z.boolean() });
const get = { method: 'GET', path: '/pos/v1/thing', retry: 'safe', response: Ok } as const;
const paymentsPath = `/pos/v1/orders/${ORDER_ID}/payments`;
const never = () => new Promise<Response>(() => {});

describeTransports('per-attempt timeouts', (t) => {
  const thingCalls = () => t.requests('GET', '/pos/v1/thing').length;

  it('a per-attempt timeout is retried for a read, then throws APIConnectionTimeoutError', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(http.get('*/pos/v1/thing', never));
    const error = await caught(t.client({ timeoutMs: 150, maxRetries: 1 }).request(get));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(thingCalls()).toBe(2);
  });

  it('payments.create is not retried after a timeout, and says the outcome is unknown', async () => {
    t.use(http.post('*/pos/v1/orders/:id/payments', never));
    const error = await caught(
      t.client({ timeoutMs: 150 }).payments.create(ORDER_ID, { method: 'card', amount_cents: 500 }),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ outcomeUnknown: true });
    expect((error as Error).message).toMatch(/outcome is unknown.*Read the order/s);
    expect(t.requests('POST', paymentsPath)).toHaveLength(1);
  });
});
