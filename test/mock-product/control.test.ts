import { describe, expect, it } from 'vitest';
import { createControlHandler } from '../../src/testing/control/serve.js';
import { renderDashboard } from '../../src/testing/dashboard/page.js';
import { incomingFromRequest } from '../../src/testing/engine/incoming.js';
import { createMockService } from '../../src/testing/index.js';
import { mintToken, newPayment, paymentPath, read, useMock } from '../testing/helpers.js';
import { control } from './helpers.js';

const h = useMock();

describe('control API: processor outcomes', () => {
  it('drives a payment to settled and refunded over HTTP only; the API then reports it', async () => {
    const ids = await newPayment(h);
    const approved = await control(h, 'POST', `/payments/${ids.paymentId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.payment).toMatchObject({ payment_id: ids.paymentId, status: 'approved' });
    expect(approved.body.events).toEqual([
      { event_id: expect.stringMatching(/^evt_/), event_kind: 'payment.approved' },
    ]);
    expect((await control(h, 'POST', `/payments/${ids.paymentId}/settle`)).body.payment.status).toBe(
      'settled',
    );
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('settled');

    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 10_000 } });
    expect(refund.status).toBe(201);
    const confirmed = await control(h, 'POST', `/refunds/${refund.body.refund_id}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.refund.status).toBe('approved');
    expect(confirmed.body.events.map((e: { event_kind: string }) => e.event_kind)).toEqual([
      'payment.refunded',
      'payment.reversal_settled',
    ]);
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('refunded');
    const order = await h.call('GET', `/pos/v1/orders/${ids.orderId}`);
    expect(order.body.status).toBe('refunded');
  });

  it.each([
    ['decline', 'declined'],
    ['fail', 'failed'],
    ['cancel', 'cancelled'],
    ['expire', 'expired'],
  ])('%s moves a pending payment to %s', async (action, status) => {
    const ids = await newPayment(h);
    const answer = await control(h, 'POST', `/payments/${ids.paymentId}/${action}`);
    expect(answer.status).toBe(200);
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe(status);
  });

  it('rejects a refund with a processor message', async () => {
    const ids = await newPayment(h);
    await control(h, 'POST', `/payments/${ids.paymentId}/approve`);
    await control(h, 'POST', `/payments/${ids.paymentId}/settle`);
    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 500 } });
    const rejected = await control(h, 'POST', `/refunds/${refund.body.refund_id}/reject`, {
      message: 'Card closed',
    });
    expect(rejected.body.refund).toMatchObject({ status: 'failed', processor_message: 'Card closed' });
    expect(rejected.body.events[0].event_kind).toBe('payment.reversal_failed');
  });

  it('answers 409 for a control that does not fit the state, and changes nothing', async () => {
    const ids = await newPayment(h);
    const before = h.mock.webhooks.events().length;
    const answer = await control(h, 'POST', `/payments/${ids.paymentId}/settle`);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: 'invalid_state',
      message: expect.stringContaining('is pending'),
      request_id: answer.headers.get('x-request-id'),
    });
    expect(answer.body.request_id).toMatch(/^req_/);
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('pending');
    expect(h.mock.webhooks.events().length).toBe(before);
  });

  it('answers 404 in the error format for unknown ids and paths, 405 with Allow for another method', async () => {
    const payment = await control(h, 'POST', '/payments/nope/approve');
    expect(payment.status).toBe(404);
    expect(payment.body).toMatchObject({
      error: 'payment_not_found',
      request_id: expect.stringMatching(/^req_/),
    });
    expect((await control(h, 'POST', '/refunds/nope/confirm')).body.error).toBe('refund_not_found');
    expect((await control(h, 'POST', '/deliveries/nope/replay')).body.error).toBe('delivery_not_found');
    expect((await control(h, 'POST', '/payments/x/refund')).body.error).toBe('not_found');
    const wrong = await control(h, 'GET', '/reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});

describe('control API: clock, faults, reset', () => {
  it('advances the clock by { ms } and validates the body', async () => {
    const start = (await control(h, 'GET', '/clock')).body.now_ms;
    const moved = await control(h, 'POST', '/clock/advance', { ms: 60_000 });
    expect(moved.status).toBe(200);
    expect(moved.body.now_ms).toBe(start + 60_000);
    expect(moved.body.now).toBe(new Date(start + 60_000).toISOString());
    expect((await control(h, 'POST', '/clock/advance', '{ms')).body.error).toBe('invalid_request');
    expect((await control(h, 'POST', '/clock/advance', { ms: 1, extra: 1 })).status).toBe(400);
    const negative = await control(h, 'POST', '/clock/advance', { ms: -5 });
    expect(negative.status).toBe(422);
    expect(negative.body.error).toBe('validation_error');
    expect((await control(h, 'GET', '/clock')).body.now_ms).toBe(start + 60_000);
  });

  it('expires a pending payment when the clock passes its time-to-live', async () => {
    const ids = await newPayment(h);
    await control(h, 'POST', '/clock/advance', { ms: 15 * 60_000 });
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('expired');
  });

  it('injects a fault from JSON into the next matching API request only', async () => {
    const accepted = await control(h, 'POST', '/faults', {
      method: 'POST',
      path: '/pos/v1/orders',
      status: 503,
      retryAfter: 2,
    });
    expect(accepted.status).toBe(201);
    const body = { location_id: h.a().location, total_cents: 100 };
    const failed = await h.call('POST', '/pos/v1/orders', { body });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('2');
    expect((await h.call('POST', '/pos/v1/orders', { body })).status).toBe(201);
    expect((await control(h, 'POST', '/faults', { path: '/pos/v1/orders' })).status).toBe(422);
    expect((await control(h, 'POST', '/faults', { status: 200 })).status).toBe(422);
    expect((await control(h, 'POST', '/faults', { status: 500, path: '/_mock/v1/reset' })).status).toBe(422);
  });

  it('reset forgets orders but keeps the seeded partners, clients and credentials', async () => {
    const ids = await newPayment(h);
    const { clientId } = h.mock.credentials;
    const answer = await control(h, 'POST', '/reset');
    expect(answer.status).toBe(200);
    expect(answer.body.reset).toBe(true);
    expect(h.mock.credentials.clientId).toBe(clientId);
    expect((await mintToken(h.server.authUrl, h.mock.credentials)).status).toBe(200);
    expect((await h.call('GET', `/pos/v1/orders/${ids.orderId}`)).status).toBe(404);
    expect((await h.call('GET', `/pos/v1/locations/${h.a().location}`)).status).toBe(200);
  });
});

describe('control API: who may call it', () => {
  it('refuses cross-origin requests and non-loopback host names (DNS rebinding)', async () => {
    const ids = await newPayment(h);
    const cross = await read(
      await fetch(`${h.server.baseUrl}/_mock/v1/payments/${ids.paymentId}/approve`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      }),
    );
    expect(cross.status).toBe(403);
    expect(cross.body.error).toBe('forbidden');
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('pending');
    const same = await fetch(`${h.server.baseUrl}/_mock/v1/clock`, { headers: { origin: h.server.baseUrl } });
    expect(same.status).toBe(200);
    const handler = createControlHandler({
      mock: h.mock,
      state: () => ({}) as never,
      dashboard: renderDashboard,
    });
    const rebound = await handler(
      await incomingFromRequest(new Request('http://attacker.example:4010/_mock/v1/clock')),
    );
    expect(rebound.status).toBe(403);
  });

  it('is served on the loopback server only, not through the in-process handlers', async () => {
    const mock = createMockService();
    const answer = await mock.fetch(new Request('https://api.payments.test/_mock/v1/clock'));
    expect(answer.status).toBe(404);
  });
});
