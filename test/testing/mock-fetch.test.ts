/**
 * Issue 53, items 1 and 2: `mock.fetch` is a client's `fetch` as it is (it takes `(input, init)` as
 * the global does), and a client given `fetch: globalThis.fetch` before msw's `server.listen()`
 * still goes through msw (the global is read on each call).
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';

const orderOf = (mock: ReturnType<typeof createMockService>) => ({
  location_id: mock.fixtures.partners[0]!.locations.payments,
  total_cents: 1_250,
});

describe('mock.fetch as a client fetch', () => {
  it('type-checks and answers a client that calls fetch(url, init)', async () => {
    const mock = createMockService();
    // Without (input, init) this line is a TS2322 under strict, and the client's first call fails.
    const client = new PaymentsClient({ ...mock.clientOptions(), fetch: mock.fetch, maxRetries: 0 });
    const order = await client.orders.create(orderOf(mock));
    expect((await client.orders.get(order.order_id)).total_cents).toBe(1_250);
  });

  it('still answers a Request alone, and (url, init) with a body', async () => {
    const mock = createMockService();
    const doc = await mock.fetch(new Request('https://api.payments.test/pos/v1/.well-known/openapi.json'));
    expect(doc.status).toBe(200);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: mock.credentials.clientId,
      client_secret: mock.credentials.clientSecret,
    });
    const token = await mock.fetch('https://auth.payments.test/oauth2/token', { method: 'POST', body: form });
    expect(token.status).toBe(200);
  });
});

describe('fetch: globalThis.fetch before msw listens', () => {
  let server: ReturnType<typeof setupServer> | undefined;
  afterEach(() => server?.close());

  it('goes through the handlers msw installs afterwards (the recipe of docs/testing.md)', async () => {
    const mock = createMockService();
    const client = new PaymentsClient({ ...mock.clientOptions(), fetch: globalThis.fetch, maxRetries: 0 });
    server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    const order = await client.orders.create(orderOf(mock));
    expect(mock.snapshot().orders.map((o) => o.order_id)).toEqual([order.order_id]);
  });

  it('the control: a fetch captured before listen() never reaches msw', async () => {
    const mock = createMockService();
    const captured = globalThis.fetch;
    const client = new PaymentsClient({
      ...mock.clientOptions(),
      fetch: (input, init) => captured(input, init),
      maxRetries: 0,
    });
    server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    await expect(client.orders.create(orderOf(mock))).rejects.toThrow(/auth\.payments\.test/);
    expect(mock.snapshot().orders).toEqual([]);
  });
});
