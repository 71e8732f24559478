// The build for Workers, edge runtimes and browsers derives an order key's UUID v5 with Web Crypto's
// SHA-1 (src/core/call/order-key.fast.web.ts, asynchronous) instead of the SHA-1 written out: the
// same UUIDs, and an orders.create through that path sends the same header, events and error key.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { keyUuid } from '../../src/core/call/order-key.fast.web.js';
import { ORDER_KEY_NAMESPACE, PaymentsClient, SCOPES } from '../../src/index.js';
import { caught } from '../helpers/caught.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { DNS_NAMESPACE as DNS, RFC_EXAMPLE, referenceUuidV5, V5_NAMES } from '../helpers/uuid-v5.js';

// The client below runs as the web build does: order-key.fast.js resolved to its .web.ts variant.
vi.mock('../../src/core/call/order-key.fast.js', () => import('../../src/core/call/order-key.fast.web.js'));

describe('keyUuid (Web Crypto)', () => {
  it("gives RFC 9562's example: www.example.com in the DNS namespace", async () => {
    expect(await keyUuid(RFC_EXAMPLE.name, DNS)).toBe(RFC_EXAMPLE.uuid);
  });
  it.each(V5_NAMES)('agrees with node:crypto for %#', async (name) => {
    expect(await keyUuid(name, DNS)).toBe(referenceUuidV5(name, DNS));
    expect(await keyUuid(name, ORDER_KEY_NAMESPACE)).toBe(referenceUuidV5(name, ORDER_KEY_NAMESPACE));
  });
});

describe('orders.create with the Web Crypto derivation', () => {
  const keys: (string | null)[] = [];
  const loop = loopbackMock({
    front: (request, mock) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/pos/v1/orders')
        keys.push(request.headers.get('idempotency-key'));
      return mock.fetch(request);
    },
  });
  const { mock } = loop;
  beforeEach(() => {
    keys.length = 0;
  });
  const client = (extra: Record<string, unknown> = {}) =>
    new PaymentsClient({
      ...loop.clientOptions(),
      scopes: [...SCOPES],
      ...extra,
    });
  const order = () => ({ location_id: mock.fixtures.partners[0]!.locations.payments, total_cents: 900 });

  it('sends the UUID v5 of a string key (one order for two calls), a UUID key unchanged', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const c = client();
    const expected = referenceUuidV5('web-cart-1', ORDER_KEY_NAMESPACE);
    const requests: unknown[] = [];
    c.on('request', (event) => requests.push(event));
    const a = c.orders.create(order(), { idempotencyKey: 'web-cart-1' });
    expect(typeof a.withResponse).toBe('function');
    const { data, status } = await a.withResponse();
    const b = await c.orders.create(order(), { idempotencyKey: 'web-cart-1' });
    expect(status).toBe(201);
    expect(b.order_id).toBe(data.order_id);
    const uuid = 'A5E0D7C2-1F3B-4E8A-9C6D-2B4F6A8C0E1D';
    await c.orders.create(order(), { idempotencyKey: uuid });
    expect(keys).toEqual([expected, expected, uuid]);
    expect(requests).toHaveLength(3);
    expect(digest).toHaveBeenCalledTimes(2); // the web derivation ran, for the two string keys
  });

  it('an error carries the key as given (api.md 22), and a middleware sees the derived key in the call headers', async () => {
    const seen: (string | undefined)[] = [];
    const c = client({
      maxRetries: 0,
      middleware: [
        (call: { headers: Record<string, string> }, next: () => Promise<unknown>) => {
          seen.push(call.headers['idempotency-key']);
          return next();
        },
      ],
    });
    const bad = { ...order(), location_id: '00000000-0000-4000-8000-000000000000' };
    const error = await caught(c.orders.create(bad, { idempotencyKey: 'web-cart-2' }));
    const expected = referenceUuidV5('web-cart-2', ORDER_KEY_NAMESPACE);
    expect(error).toMatchObject({ idempotencyKey: 'web-cart-2' });
    expect(seen).toEqual([expected]);
  });
});
