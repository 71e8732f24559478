import { describe, expect, it } from 'vitest';
import { newOrder, newPayment, paymentPath, settledPayment, useMock } from './helpers.js';

const h = useMock();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = '0b9f4a52-2f61-4c1e-9d0c-6f1b2a3c4d5e';

describe('4.1 create order / 4.2 get order', () => {
  it('answers 201 with order_id, status open, total_cents, created_at', async () => {
    const answer = await h.call('POST', '/pos/v1/orders', {
      body: {
        location_id: h.a().location,
        total_cents: 4_999,
        external_reference: 'INV-7',
        metadata: { a: 1 },
      },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      order_id: expect.stringMatching(UUID),
      status: 'open',
      total_cents: 4_999,
      created_at: h.mock.clock.iso(),
    });
  });

  it('adds hosted_checkout_url and expires_at (5 minutes) when return_url and cancel_url are given', async () => {
    const answer = await h.call('POST', '/pos/v1/orders', {
      body: {
        location_id: h.a().location,
        total_cents: 100,
        return_url: 'https://shop.example.com/return',
        cancel_url: 'https://shop.example.com/cancel',
      },
    });
    expect(answer.body.hosted_checkout_url).toMatch(
      new RegExp(`^${h.server.baseUrl}/pos/v1/public/hosted-checkout\\?token=`),
    );
    expect(Date.parse(answer.body.expires_at) - h.mock.clock.now()).toBe(5 * 60_000);
  });

  it('returns the order with its payments', async () => {
    const { orderId, paymentId } = await newPayment(h, 3_000, 10_000);
    const answer = await h.call('GET', `/pos/v1/orders/${orderId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      order_id: orderId,
      location_id: h.a().location,
      status: 'pending',
      total_cents: 10_000,
      payments: [
        {
          payment_id: paymentId,
          status: 'pending',
          amount_cents: 3_000,
          method: 'card',
          created_at: expect.any(String),
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('an Idempotency-Key replays the original response and creates no second order', async () => {
    const body = { location_id: h.a().location, total_cents: 700 };
    const first = await h.call('POST', '/pos/v1/orders', { headers: { 'idempotency-key': KEY }, body });
    const again = await h.call('POST', '/pos/v1/orders', {
      headers: { 'idempotency-key': KEY },
      body: { total_cents: 700, location_id: h.a().location },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    h.mock.clock.advance(24 * 3_600_000);
    const later = await h.call('POST', '/pos/v1/orders', { headers: { 'idempotency-key': KEY }, body });
    expect(later.body.order_id).not.toBe(first.body.order_id);
  });

  it('an Idempotency-Key that is not a UUID is 400 invalid_request', async () => {
    const answer = await h.call('POST', '/pos/v1/orders', {
      headers: { 'idempotency-key': 'abc' },
      body: { location_id: h.a().location, total_cents: 1 },
    });
    expect([answer.status, answer.body.error]).toEqual([400, 'invalid_request']);
  });
});

describe('4.3 - 4.7 payments and refunds', () => {
  it('4.3 create payment answers 201 pending with the spec fields', async () => {
    const orderId = await newOrder(h);
    const answer = await h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
      body: { method: 'card', amount_cents: 10_000 },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      payment_id: expect.stringMatching(UUID),
      order_id: orderId,
      status: 'pending',
      amount_cents: 10_000,
      method: 'card',
      created_at: expect.any(String),
    });
  });

  it('4.4 get payment carries processor_reference and updated_at', async () => {
    const ids = await newPayment(h);
    const answer = await h.call('GET', paymentPath(ids));
    expect(answer.body).toMatchObject({
      payment_id: ids.paymentId,
      order_id: ids.orderId,
      status: 'pending',
      processor_reference: expect.stringMatching(/^mockproc_/),
      updated_at: expect.any(String),
    });
  });

  it('4.5 void answers payment_id, status voided, voided_at', async () => {
    const ids = await newPayment(h);
    const answer = await h.call('POST', `${paymentPath(ids)}/void`);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      payment_id: ids.paymentId,
      status: 'voided',
      voided_at: h.mock.clock.iso(),
    });
  });

  it('4.5 void of a declined payment is 422 validation_error', async () => {
    const ids = await newPayment(h);
    h.mock.processor.decline(ids.paymentId);
    const answer = await h.call('POST', `${paymentPath(ids)}/void`);
    expect([answer.status, answer.body.error]).toEqual([422, 'validation_error']);
  });

  it('4.6 / 4.7 a refund is created pending and read back', async () => {
    const ids = await settledPayment(h);
    const created = await h.call('POST', `${paymentPath(ids)}/refunds`, {
      body: { amount_cents: 400, reason: 'duplicate' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      refund_id: expect.stringMatching(UUID),
      payment_id: ids.paymentId,
      order_id: ids.orderId,
      status: 'pending',
      amount_cents: 400,
      reason: 'duplicate',
    });
    const read = await h.call('GET', `${paymentPath(ids)}/refunds/${created.body.refund_id}`);
    expect(read.body).toEqual(created.body);
  });

  it('4.6 refunding an approved (unsettled) payment is 422: settle first, or void to cancel', async () => {
    const ids = await newPayment(h);
    h.mock.processor.approve(ids.paymentId);
    const answer = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 1 } });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toBe(
      'Only a settled payment can be refunded; this payment is approved. Void it to cancel the charge, ' +
        'or wait until it is settled to refund it (in full or in part)',
    );
  });

  it('4.6 an unknown reason is refused by the request schema', async () => {
    const ids = await settledPayment(h);
    const answer = await h.call('POST', `${paymentPath(ids)}/refunds`, {
      body: { amount_cents: 1, reason: 'whim' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/reason/);
  });
});

describe('4.8 / 4.9 locations', () => {
  it('lists 50 by default with the page envelope and summary fields only', async () => {
    const answer = await h.call('GET', '/pos/v1/locations');
    expect(answer.body).toMatchObject({ total: 60, limit: 50, offset: 0 });
    expect(answer.body.items).toHaveLength(50);
    expect(Object.keys(answer.body.items[0]).sort()).toEqual([
      'active',
      'address',
      'currency',
      'location_id',
      'name',
      'timezone',
    ]);
  });

  it('pages with limit and offset through 450 seeded locations', async () => {
    h.mock.seedLocations(h.a().partnerId, 390);
    const seen = new Set<string>();
    for (let offset = 0; offset < 450; offset += 200) {
      const page = await h.call('GET', `/pos/v1/locations?limit=200&offset=${offset}`);
      expect(page.body.total).toBe(450);
      for (const item of page.body.items) seen.add(item.location_id);
    }
    expect(seen.size).toBe(450);
  });

  it('refuses limit 201 and fuzzy-searches names', async () => {
    expect((await h.call('GET', '/pos/v1/locations?limit=201')).status).toBe(422);
    const found = await h.call('GET', '/pos/v1/locations?search=parts%20partner');
    expect(found.body.items.map((l: { name: string }) => l.name)).toEqual(['Partner A Parts Counter']);
  });

  it('get-one adds organization_id, features and created_at', async () => {
    const answer = await h.call('GET', `/pos/v1/locations/${h.a().location}`);
    expect(answer.body).toMatchObject({
      location_id: h.a().location,
      organization_id: expect.any(String),
      features: ['payments', 'pos'],
      created_at: expect.any(String),
    });
  });
});

describe('unknown paths never pass through', () => {
  it.each([
    ['GET', '/pos/v1/nothing-here', 404, 'not_found'],
    ['DELETE', '/pos/v1/locations', 405, 'method_not_allowed'],
    ['GET', '/admin/v1/partners', 404, 'not_found'],
    ['GET', '/pos/v1/orders/%E0%A4%A', 400, 'invalid_request'],
  ])('%s %s -> %i JSON', async (method, path, status, code) => {
    const answer = await h.call(method, path);
    expect([answer.status, answer.body.error]).toEqual([status, code]);
  });

  it('a 405 names the allowed methods in Allow', async () => {
    const answer = await h.call('PUT', '/pos/v1/public/hosted-checkout');
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });
});
