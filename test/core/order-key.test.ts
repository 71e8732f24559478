// Issue 10, violation 2: every error leaving orders.create after an attempt was sent carries the
// Idempotency-Key it sent, and `outcomeUnknown: true` when an attempt may have created the order,
// whatever ended the call: a token that could not be re-minted, the deadline, the caller's abort,
// an unreadable answer.
import { HttpResponse, http } from 'msw';
import { beforeEach, expect, it, vi } from 'vitest';
import { type CallError, PaymentsError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { LOCATION_ID } from '../helpers/fixtures.js';
import { apiError, sequence, tokenEndpoint } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const params = { location_id: LOCATION_ID, total_cents: 1_250 };
const committed503 = () =>
  apiError(503, 'service_unavailable', 'Try again', { headers: { 'retry-after': '0' } });
const never = () => new Promise<Response>(() => {});

describeTransports('orders.create keeps its Idempotency-Key on every failure', (t) => {
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // every backoff 0 ms
  });
  const sentKeys = () =>
    new Set(t.requests('POST', '/pos/v1/orders').map((r) => r.headers['idempotency-key']));

  async function expectKeyed(error: unknown, outcomeUnknown: boolean): Promise<void> {
    expect(error).toBeInstanceOf(PaymentsError);
    const keys = sentKeys();
    expect(keys.size).toBe(1);
    const [key] = keys;
    expect((error as CallError).idempotencyKey).toBe(key);
    expect((error as CallError).outcomeUnknown).toBe(outcomeUnknown);
    if (outcomeUnknown) expect((error as CallError).message).toContain(`idempotencyKey: '${key}'`);
  }

  it('503 (committed), then 401 token_expired, then the re-mint fails with 503', async () => {
    t.use(
      tokenEndpoint({ override: (n) => (n > 1 ? apiError(503, 'service_unavailable') : undefined) }),
      sequence('post', '*/pos/v1/orders', [committed503, () => apiError(401, 'token_expired')]),
    );
    const error = await caught(t.client().orders.create(params));
    expect((error as Error).message).toMatch(/access token/);
    await expectKeyed(error, true);
  });

  it('the token cannot be minted at all: the key is still on the error, the outcome known', async () => {
    t.use(tokenEndpoint({ override: () => apiError(503, 'service_unavailable') }));
    const error = await caught(t.client({ maxRetries: 0 }).orders.create(params));
    expect(error).toBeInstanceOf(PaymentsError);
    expect(t.requests('POST', '/pos/v1/orders')).toHaveLength(0);
    expect((error as CallError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as CallError).outcomeUnknown).toBe(false);
  });

  it('503 (committed), then the deadline passes while a re-mint hangs', async () => {
    t.use(
      tokenEndpoint({ override: (n) => (n > 1 ? never() : undefined) }),
      sequence('post', '*/pos/v1/orders', [committed503, () => apiError(401, 'token_expired')]),
    );
    const error = await caught(t.client({ deadlineMs: 400 }).orders.create(params));
    expect((error as Error).message).toMatch(/400 ms deadline/);
    await expectKeyed(error, true);
  });

  it('503 (committed), then the caller aborts during the second attempt', async () => {
    const controller = new AbortController();
    t.use(
      sequence('post', '*/pos/v1/orders', [
        committed503,
        () => {
          setTimeout(() => controller.abort(), 20);
          return never();
        },
      ]),
    );
    const error = await caught(t.client().orders.create(params, { signal: controller.signal }));
    expect((error as Error).name).toBe('APIUserAbortError');
    await expectKeyed(error, true);
  });

  it('a caller abort during the first attempt: the order may exist', async () => {
    const controller = new AbortController();
    t.use(
      http.post('*/pos/v1/orders', () => {
        setTimeout(() => controller.abort(), 20);
        return never();
      }),
    );
    const error = await caught(t.client().orders.create(params, { signal: controller.signal }));
    await expectKeyed(error, true);
  });

  it('503 (committed), then a 201 of the wrong shape', async () => {
    t.use(
      sequence('post', '*/pos/v1/orders', [
        committed503,
        () => HttpResponse.json({ unexpected: true }, { status: 201 }),
      ]),
    );
    const error = await caught(t.client().orders.create(params));
    expect((error as Error).name).toBe('InvalidResponseError');
    await expectKeyed(error, true);
  });

  it('503 on every attempt: the order may exist', async () => {
    t.use(http.post('*/pos/v1/orders', committed503));
    const error = await caught(t.client().orders.create(params));
    expect(t.requests('POST', '/pos/v1/orders')).toHaveLength(3);
    await expectKeyed(error, true);
  });

  it('a 400 on the only attempt: the key, and a known outcome', async () => {
    t.use(http.post('*/pos/v1/orders', () => apiError(400, 'invalid_request')));
    const error = await caught(t.client().orders.create(params));
    await expectKeyed(error, false);
  });

  it('two calls waiting for one failing mint each get their own key', async () => {
    t.use(tokenEndpoint({ override: () => apiError(503, 'service_unavailable') }));
    const client = t.client({ maxRetries: 0 });
    const [a, b] = (await Promise.all([
      caught(client.orders.create(params)),
      caught(client.orders.create(params)),
    ])) as CallError[];
    expect(a?.idempotencyKey).toBeDefined();
    expect(b?.idempotencyKey).toBeDefined();
    expect(a?.idempotencyKey).not.toBe(b?.idempotencyKey);
  });
});
