import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import type { EndEvent, PaymentsClientEvents } from '../../src/core/observe/events.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID, openOrderBody, orderCreated } from '../helpers/fixtures.js';
import { apiError, sequence } from '../helpers/handlers.js';
import { type RawServer, refusedUrl, resetAfterRead, startRawServer } from '../helpers/raw-server.js';
import { socketTransports } from '../helpers/socket-transports.js';
import { describeTransports } from '../helpers/transports.js';

const order = openOrderBody;

type Recorded = { name: keyof PaymentsClientEvents; payload: Record<string, unknown> };

function record(client: PaymentsClient): Recorded[] {
  const out: Recorded[] = [];
  for (const name of ['request', 'response', 'retry', 'token', 'end'] as const) {
    client.on(name, (payload: object) => out.push({ name, payload: payload as Record<string, unknown> }));
  }
  return out;
}

const ends = (events: Recorded[]) =>
  events.filter((e) => e.name === 'end').map((e) => e.payload as unknown as EndEvent);

describeTransports('call events', (t) => {
  afterEach(() => vi.restoreAllMocks());

  it('every event of a call carries its callId; `end` comes once, with the route and the attempts', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      sequence('get', '*/pos/v1/orders/:id', [
        () => apiError(503, 'service_unavailable', 'busy', { headers: { 'Retry-After': '0' } }),
        () => HttpResponse.json({ ...order, request_id: 'req_ok' }),
      ]),
    );
    const client = t.client();
    const events = record(client);
    await client.orders.get(ORDER_ID);
    await client.orders.get(ORDER_ID);
    const callEvents = events.filter((e) => e.name !== 'token');
    const ids = [...new Set(callEvents.map((e) => e.payload.callId))];
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    const first = callEvents.filter((e) => e.payload.callId === ids[0]).map((e) => e.name);
    expect(first).toEqual(['request', 'response', 'retry', 'request', 'response', 'end']);
    expect(ends(events)[0]).toMatchObject({
      callId: ids[0],
      method: 'GET',
      path: `/pos/v1/orders/${ORDER_ID}`,
      route: '/pos/v1/orders/{order_id}',
      ok: true,
      status: 200,
      attempts: 2,
    });
    expect(ends(events)[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(ends(events)[0]).not.toHaveProperty('outcomeUnknown');
  });

  it('a token mint emits `token` only: no `end`, no request event of its own', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)));
    const client = t.client();
    const events = record(client);
    await client.orders.get(ORDER_ID);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
    expect(events.map((e) => e.name)).toEqual(['token', 'request', 'response', 'end']);
    expect(events.filter((e) => e.name === 'request').map((e) => e.payload.path)).toEqual([
      `/pos/v1/orders/${ORDER_ID}`,
    ]);
  });

  it('a failed call ends with its status, code and outcome', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', () => apiError(404, 'order_not_found')),
      http.post('*/pos/v1/orders/:id/payments', () => apiError(500, 'internal_error')),
    );
    const client = t.client();
    const events = record(client);
    await caught(client.orders.get(ORDER_ID));
    await caught(client.payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
    expect(ends(events)).toEqual([
      expect.objectContaining({ ok: false, status: 404, code: 'order_not_found', attempts: 1 }),
      expect.objectContaining({
        ok: false,
        status: 500,
        code: 'internal_error',
        attempts: 1,
        outcomeUnknown: true,
        route: '/pos/v1/orders/{order_id}/payments',
      }),
    ]);
  });

  it('a call that fails before sending (a token that cannot be minted) still ends, with 0 attempts', async () => {
    t.use(http.post('*/oauth2/token', () => apiError(401, 'invalid_client')));
    const client = t.client();
    const events = record(client);
    await caught(client.orders.create({ location_id: ORDER_ID, total_cents: 1 }));
    expect(ends(events)).toEqual([
      expect.objectContaining({ ok: false, attempts: 0, route: '/pos/v1/orders', method: 'POST' }),
    ]);
    expect(events.some((e) => e.name === 'request')).toBe(false);
  });

  it('with nobody listening, a call builds no event payload', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)),
      http.post('*/pos/v1/orders', orderCreated),
    );
    const client = t.client();
    await client.orders.get(ORDER_ID); // the token is minted once
    const emit = vi.spyOn(client, 'emit');
    await client.orders.get(ORDER_ID);
    await client.orders.create({ location_id: ORDER_ID, total_cents: 1 });
    expect(emit).not.toHaveBeenCalled();
    // Positive control: with a listener the same call emits.
    client.on('end', () => {});
    await client.orders.get(ORDER_ID);
    expect(emit).toHaveBeenCalledWith('end', expect.objectContaining({ ok: true }));
  });
});

// Calls that get no response at all, on real loopback sockets.
const kinds = socketTransports;
let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

for (const [kind, extra] of Object.entries(kinds)) {
  describe(`end without a response [${kind}]`, () => {
    const client = (baseUrl: string, more: object = {}) =>
      new PaymentsClient({
        baseUrl,
        accessToken: 'static_token_value',
        maxRetries: 0,
        reconcile: 'off',
        ...extra,
        ...more,
      });

    it('refused', async () => {
      const c = client(await refusedUrl());
      const events = record(c);
      await caught(c.orders.get(ORDER_ID));
      expect(ends(events)).toEqual([expect.objectContaining({ ok: false, attempts: 1 })]);
      expect(ends(events)[0]).not.toHaveProperty('status');
    });

    it('reset after sending: outcome unknown for a payment', async () => {
      server = await startRawServer(resetAfterRead);
      const c = client(server.url);
      const events = record(c);
      await caught(c.payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
      expect(ends(events)).toEqual([
        expect.objectContaining({ ok: false, attempts: 1, outcomeUnknown: true }),
      ]);
    });

    it('timeout', async () => {
      server = await startRawServer(() => {});
      const c = client(server.url, { timeoutMs: 100 });
      const events = record(c);
      await caught(c.orders.get(ORDER_ID));
      expect(ends(events)).toEqual([expect.objectContaining({ ok: false, attempts: 1 })]);
    });
  });
}
