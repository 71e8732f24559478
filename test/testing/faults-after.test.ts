import { beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, InternalServerError, PaymentsClient } from '../../src/index.js';
import { type FaultSpec, FaultSpecError, MockControlError } from '../../src/testing/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { mintToken, read } from './helpers.js';

// Faults after commit (`phase: 'after'`): the route commits its effect, then the answer is lost or
// spoiled. Every kind runs through the loopback server and through `mock.fetch`.

/** Idempotency-Key of every request that reached the mock, in order. */
let keys: (string | null)[] = [];
/** Requests that reached the mock (so a test knows a delayed answer is waiting on the clock). */
let arrived = 0;

const loop = loopbackMock({
  front: (request, mock) => {
    arrived++;
    keys.push(request.headers.get('idempotency-key'));
    return mock.fetch(request).catch(() => Response.error());
  },
});
const { mock } = loop;
beforeEach(() => {
  keys = [];
  arrived = 0;
});

const partner = () => mock.fixtures.partners[0]!;
const ordersOf = () => mock.snapshot().orders.filter((o) => o.partner_id === partner().partnerId);
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

type Transport = 'loopback' | 'mock.fetch';
const TRANSPORTS: Transport[] = ['loopback', 'mock.fetch'];

async function token(): Promise<string> {
  return (await mintToken(loop.url, mock.credentials)).body.access_token as string;
}

/** Creates an order with raw HTTP through `transport`; resolves with the answer as it arrives. */
async function createOrder(transport: Transport, auth: string): Promise<Response> {
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: partner().locations.payments, total_cents: 4_200 }),
  };
  if (transport === 'loopback') return fetch(`${loop.url}/pos/v1/orders`, init);
  arrived++;
  return mock.fetch(new Request('https://api.payments.test/pos/v1/orders', init));
}

const ORDERS = { method: 'POST', path: '/pos/v1/orders' } as const;

describe.each(TRANSPORTS)('each fault kind through %s', (transport) => {
  it.each(['before', 'after'] as const)(
    '503 with Retry-After (%s): the order exists only after commit',
    async (phase) => {
      mock.failNext({ ...ORDERS, phase, status: 503, retryAfter: 7 });
      const answer = await read(await createOrder(transport, await token()));
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('7');
      expect(answer.body.error).toBe('service_unavailable');
      expect(ordersOf()).toHaveLength(phase === 'after' ? 1 : 0);
    },
  );

  it.each(['before', 'after'] as const)(
    'connection reset (%s): fetch rejects with a TypeError',
    async (phase) => {
      mock.failNext({ ...ORDERS, phase, network: true });
      const failed = await createOrder(transport, await token()).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(TypeError);
      expect((failed as Error).message).toBe('fetch failed');
      expect(ordersOf()).toHaveLength(phase === 'after' ? 1 : 0);
    },
  );

  it('truncated JSON after commit: the 201 of the route, cut in half', async () => {
    mock.failNext({ ...ORDERS, phase: 'after', body: 'truncated' });
    const answer = await read(await createOrder(transport, await token()));
    expect(answer.status).toBe(201);
    expect(answer.body).toBeNull(); // not JSON any more
    expect(answer.text).toMatch(/^\{"order_id":/);
    expect(ordersOf()).toHaveLength(1);
  });

  it('an HTML 502 page after commit', async () => {
    mock.failNext({ ...ORDERS, phase: 'after', status: 502, body: 'html' });
    const answer = await read(await createOrder(transport, await token()));
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<h1>502 Bad Gateway</h1>');
    expect(ordersOf()).toHaveLength(1);
  });

  it('a body cut by a reset after commit: the head arrives, reading the body fails', async () => {
    mock.failNext({ ...ORDERS, phase: 'after', body: 'cut' });
    const response = await createOrder(transport, await token());
    expect(response.status).toBe(201);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(ordersOf()).toHaveLength(1);
  });

  it('a delay after commit waits on the mock clock: the order exists, the answer waits', async () => {
    mock.failNext({ ...ORDERS, phase: 'after', delayMs: 30_000 });
    let answered = false;
    const pending = createOrder(transport, await token()).finally(() => {
      answered = true;
    });
    await vi.waitFor(() => expect(ordersOf()).toHaveLength(1));
    await tick();
    mock.clock.advance(29_999);
    await tick();
    expect(answered).toBe(false);
    mock.clock.advance(1);
    expect((await pending).status).toBe(201);
  });

  it('a delay before the route: nothing is committed until the clock passes it', async () => {
    mock.failNext({ ...ORDERS, delayMs: 30_000 });
    const auth = await token();
    const before = arrived;
    const pending = createOrder(transport, auth);
    await vi.waitFor(() => expect(arrived).toBe(before + 1));
    await tick();
    mock.clock.advance(29_999);
    await tick();
    expect(ordersOf()).toHaveLength(0);
    mock.clock.advance(1);
    expect((await pending).status).toBe(201);
    expect(ordersOf()).toHaveLength(1);
  });

  it('a slow-drip body: one chunk at once, the next ones as the mock clock moves', async () => {
    mock.failNext({ ...ORDERS, phase: 'after', drip: { everyMs: 1_000, chunks: 3 } });
    const response = await createOrder(transport, await token());
    expect(response.status).toBe(201);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(text.length).toBeGreaterThan(0);
    let done = false;
    const rest = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
      done = true;
    })();
    await tick();
    expect(done).toBe(false);
    mock.clock.advance(1_000);
    await tick();
    expect(done).toBe(false);
    mock.clock.advance(1_000);
    await rest;
    expect(JSON.parse(text)).toMatchObject({ status: 'open', total_cents: 4_200 });
  });
});

function sdkClient(transport: Transport): PaymentsClient {
  const options = {
    ...loop.clientOptions(),
    maxRetries: 2,
    reconcile: 'off' as const,
  };
  if (transport === 'loopback') return new PaymentsClient(options);
  const recordingFetch = (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    keys.push(request.headers.get('idempotency-key'));
    return mock.fetch(request);
  };
  return new PaymentsClient({ ...options, fetch: recordingFetch as typeof fetch });
}

describe.each(TRANSPORTS)('the SDK meets a fault after commit (%s)', (transport) => {
  it('503 after the order was created: retried with the same Idempotency-Key, one order', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // backoff of 0 ms
    mock.failNext({ ...ORDERS, phase: 'after', status: 503, retryAfter: 0 });
    const client = sdkClient(transport);
    const order = await client.orders.create({ location_id: partner().locations.payments, total_cents: 900 });
    const orderKeys = keys.filter((k) => k !== null);
    expect(orderKeys).toHaveLength(2);
    expect(new Set(orderKeys).size).toBe(1);
    expect(ordersOf().map((o) => o.order_id)).toEqual([order.order_id]);
  });

  it('a reset after the payment was made: outcomeUnknown, and the payment exists', async () => {
    const client = sdkClient(transport);
    const order = await client.orders.create({ location_id: partner().locations.payments, total_cents: 900 });
    mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    const error = await client.payments.create(order.order_id, { method: 'card', amount_cents: 900 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).outcomeUnknown).toBe(true);
    const payments = mock.snapshot().payments.filter((p) => p.order_id === order.order_id);
    expect(payments).toHaveLength(1);
    expect(payments[0]!.status).toBe('pending');
  });

  it('a 500 after the payment was made is not retried: one payment, outcome unknown', async () => {
    const client = sdkClient(transport);
    const order = await client.orders.create({ location_id: partner().locations.payments, total_cents: 900 });
    mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', status: 500, times: 3 });
    const error = await client.payments.create(order.order_id, { method: 'card', amount_cents: 900 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).outcomeUnknown).toBe(true);
    expect(mock.snapshot().payments.filter((p) => p.order_id === order.order_id)).toHaveLength(1);
  });
});

describe('a bad fault spec is a typed error naming the field', () => {
  it.each<[FaultSpec, string]>([
    [{ path: '/x' }, 'status'],
    [{ status: 200 }, 'status'],
    [{ status: 503, phase: 'later' as 'after' }, 'phase'],
    [{ network: true, status: 503 }, 'network'],
    [{ drip: { everyMs: 0 } }, 'drip.everyMs'],
    [{ body: 'cut', drip: { everyMs: 5 } }, 'drip'],
    [{ delayMs: 5, retryAfter: 1 }, 'retryAfter'],
    [{ status: 503, times: 0 }, 'times'],
  ])('%j -> %s', (spec, field) => {
    const error = (() => {
      try {
        mock.failNext(spec);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FaultSpecError);
    expect(error).toBeInstanceOf(MockControlError);
    expect(error).toMatchObject({ field, status: 400, code: 'invalid', name: 'FaultSpecError' });
    expect((error as Error).message).toContain(`failNext: ${field}:`);
  });
});

describe('POST /_mock/v1/faults takes phase and the new kinds as JSON', () => {
  const post = async (base: string, body: unknown) =>
    read(
      await fetch(`${base}/_mock/v1/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );

  it('an after-commit fault from JSON: the order is created, the answer is an HTML 502', async () => {
    const listening = await mock.listen();
    try {
      const spec = { ...ORDERS, phase: 'after', status: 502, body: 'html', headers: { 'x-test': 'one' } };
      const accepted = await post(listening.url, spec);
      expect(accepted.status).toBe(201);
      expect(accepted.body).toEqual({ fault: spec, pending: true });
      const auth = await token();
      const unmatched = await createOrder('mock.fetch', auth);
      expect(unmatched.status).toBe(201); // no x-test header: the fault waits
      const answer = await fetch(`${listening.url}/pos/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json', 'x-test': 'one' },
        body: JSON.stringify({ location_id: partner().locations.payments, total_cents: 100 }),
      });
      expect(answer.status).toBe(502);
      expect(await answer.text()).toContain('502 Bad Gateway');
      expect(ordersOf()).toHaveLength(2);
    } finally {
      await listening.close();
    }
  });

  it.each<[unknown, string]>([
    [{ status: 503, drip: { everyMs: 0 } }, 'drip.everyMs'],
    [{ network: true, status: 503 }, 'network'],
    [{ phase: 'during', status: 503 }, 'phase'],
    [{ retryAfter: 1 }, 'retryAfter'],
  ])('refuses %j naming %s', async (spec, field) => {
    const listening = await mock.listen();
    try {
      const answer = await post(listening.url, spec);
      expect([400, 422]).toContain(answer.status);
      expect(answer.body.message).toContain(field);
      expect(answer.body.request_id).toMatch(/^req_/);
    } finally {
      await listening.close();
    }
  });
});
