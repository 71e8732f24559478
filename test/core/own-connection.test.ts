// On Deno the global `fetch` resends a request whose pooled connection was reset; every request the
// SDK must not repeat (retry mode `unsafe`) therefore goes out with a fetch client of its own
// (`Deno.createHttpClient`, no pooling), closed after the exchange; reads and keyed order creation
// keep the pool, and a partner's own `fetch` is left as it is. A stand-in `Deno` and `fetch` record
// what each request was sent with (the real Deno: the ecosystem suite, scripts/ecosystem).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import { APIConnectionError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID, PAYMENT_ID, paymentBody } from '../helpers/fixtures.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

interface Sent {
  method: string;
  path: string;
  client: unknown;
}

/** A stand-in Deno (its createHttpClient counts clients) and a global fetch that records. */
function fakeDeno(options: { createFails?: boolean } = {}) {
  const clients: { options: unknown; closed: boolean }[] = [];
  const sent: Sent[] = [];
  vi.stubGlobal('Deno', {
    version: { deno: '2.9.6' },
    createHttpClient(clientOptions: unknown) {
      if (options.createFails) throw new TypeError('createHttpClient failed');
      const client = { options: clientOptions, closed: false, close: () => (client.closed = true) };
      clients.push(client);
      return client;
    },
  });
  const fetch = vi.fn(async (input: string, init: RequestInit & { client?: unknown }) => {
    sent.push({ method: init.method ?? 'GET', path: new URL(input).pathname, client: init.client });
    // Whether the client is still open while the exchange runs.
    const open = clients.find((c) => c === init.client)?.closed === false;
    const body = init.method === 'POST' ? { ...paymentBody, open } : { order_id: ORDER_ID };
    return Response.json(body, { status: init.method === 'POST' ? 201 : 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return { clients, sent };
}

const client = (extra: object = {}) =>
  new PaymentsClient({
    baseUrl: 'https://api.test',
    accessToken: 'tok_test',
    maxRetries: 0,
    reconcile: 'off',
    ...extra,
  });
const Any = z.looseObject({});

describe('on Deno, with the global fetch', () => {
  it('a payment goes out on a fetch client of its own, without pooling, closed after the answer', async () => {
    const { clients, sent } = fakeDeno();
    const payment = await client().payments.create(ORDER_ID, { method: 'card', amount_cents: 100 });
    expect(clients).toEqual([
      { options: { poolMaxIdlePerHost: 0 }, closed: true, close: expect.any(Function) },
    ]);
    expect(sent).toEqual([
      { method: 'POST', path: `/pos/v1/orders/${ORDER_ID}/payments`, client: clients[0] },
    ]);
    expect(payment).toMatchObject({ open: true });
  });

  it('so does a refund, and any call whose retry mode is unsafe: one client per request', async () => {
    const { clients, sent } = fakeDeno();
    const c = client();
    await c.refunds.create(ORDER_ID, PAYMENT_ID, { amount_cents: 100 }).catch(() => {});
    await c.request({ method: 'POST', path: '/pos/v1/things', body: {}, retry: 'unsafe', response: Any });
    await c.request({ method: 'POST', path: '/pos/v1/things', body: {}, retry: 'unsafe', response: Any });
    expect(sent.map((s) => s.client)).toEqual(clients);
    expect(clients).toHaveLength(3);
    expect(clients.every((c) => c.closed)).toBe(true);
  });

  it('reads, voids and keyed order creation keep the pooled connection', async () => {
    const { clients, sent } = fakeDeno();
    const c = client();
    await c.orders.get(ORDER_ID).catch(() => {});
    await c.payments.void(ORDER_ID, PAYMENT_ID).catch(() => {});
    await c.orders.create({ location_id: ORDER_ID, total_cents: 100 }).catch(() => {});
    expect(sent.map((s) => s.method)).toEqual(['GET', 'POST', 'POST']);
    expect(sent.every((s) => s.client === undefined)).toBe(true);
    expect(clients).toHaveLength(0);
  });

  it('the client is closed when the attempt fails too', async () => {
    const { clients } = fakeDeno();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('error sending request: connection reset');
    });
    const error = await caught(client().payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true });
    expect(clients).toEqual([expect.objectContaining({ closed: true })]);
  });

  it('a client that cannot be made fails the attempt before anything is sent', async () => {
    const { sent } = fakeDeno({ createFails: true });
    const error = await caught(client().payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: false });
    expect(String((error as Error).message)).toMatch(/nothing was sent/);
    expect(sent).toHaveLength(0);
  });
});

describe("a partner's own fetch", () => {
  it('is called as it is: no client is added, on Deno or anywhere', async () => {
    const { clients } = fakeDeno();
    const inits: RequestInit[] = [];
    const own = async (_input: string | URL | Request, init?: RequestInit) => {
      inits.push(init ?? {});
      return Response.json(paymentBody, { status: 201 });
    };
    await client({ fetch: own }).payments.create(ORDER_ID, { method: 'card', amount_cents: 100 });
    expect(inits).toHaveLength(1);
    expect('client' in (inits[0] as object)).toBe(false);
    expect(clients).toHaveLength(0);
  });
});

describe('off Deno', () => {
  it('the global fetch is called without a client', async () => {
    const inits: RequestInit[] = [];
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    vi.stubGlobal('fetch', async (_input: string, init: RequestInit) => {
      inits.push(init);
      return Response.json(paymentBody, { status: 201 });
    });
    await client().payments.create(ORDER_ID, { method: 'card', amount_cents: 100 });
    expect('client' in (inits[0] as object)).toBe(false);
  });
});
