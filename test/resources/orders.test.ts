import { expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { describeWithMock, UNKNOWN_ID } from './mock-harness.js';

describeWithMock('orders', (h) => {
  it('create: returns the open order and sends an Idempotency-Key', async () => {
    const order = await h.client().orders.create({
      location_id: h.locationId(),
      total_cents: 2_500,
      external_reference: 'INV-1',
      customer_email: 'a@example.com',
      customer_phone: '+15551234567',
      metadata: { ticket: 42 },
    });
    expect(order).toMatchObject({ status: 'open', total_cents: 2_500 });
    const [sent] = h.t.requests('POST', '/pos/v1/orders');
    expect(sent?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent?.headers.authorization).toMatch(/^Bearer /);
  });

  it('create: with return and cancel URLs carries hosted_checkout_url and expires_at', async () => {
    const order = await h.client().orders.create({
      location_id: h.locationId(),
      total_cents: 2_500,
      return_url: 'https://shop.example.com/return',
      cancel_url: 'https://shop.example.com/cancel',
    });
    expect(order.hosted_checkout_url).toMatch(/\/pos\/v1\/public\/hosted-checkout\?token=/);
    expect(Date.parse(order.expires_at)).toBeGreaterThan(Date.parse(order.created_at));
  });

  it('create: the same caller key returns the same order; another body is idempotency_conflict', async () => {
    const client = h.client();
    const params = { location_id: h.locationId(), total_cents: 700 };
    const a = await client.orders.create(params, { idempotencyKey: 'a5e0d7c2-1f3b-4e8a-9c6d-2b4f6a8c0e1d' });
    const b = await client.orders.create(params, { idempotencyKey: 'a5e0d7c2-1f3b-4e8a-9c6d-2b4f6a8c0e1d' });
    expect(b.order_id).toBe(a.order_id);
    const error = await client.orders
      .create({ ...params, total_cents: 701 }, { idempotencyKey: 'a5e0d7c2-1f3b-4e8a-9c6d-2b4f6a8c0e1d' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });

  it('create: location_not_found, location_out_of_scope and validation_error from the service', async () => {
    const client = h.client();
    const partnerB = h.mock().fixtures.partners[1]!;
    const mine = h.mock().fixtures.partners[0]!.locations;
    await expect(client.orders.create({ location_id: UNKNOWN_ID, total_cents: 1 })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'location_not_found',
    });
    await expect(
      client.orders.create({ location_id: partnerB.locations.payments, total_cents: 1 }),
    ).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: 'location_out_of_scope',
    });
    const noPayments = await client.orders
      .create({ location_id: mine.noPayments, total_cents: 1 })
      .then(async (o) => client.payments.create(o.order_id, { method: 'card', amount_cents: 1 }))
      .catch((e: unknown) => e);
    expect(noPayments).toBeInstanceOf(UnprocessableEntityError);
    expect(noPayments).toMatchObject({ code: 'validation_error' });
  });

  it.each([
    ['invalid_request', 400],
    ['level3_tax_mismatch', 400],
    ['level3_validation_failed', 400],
  ])('create: maps the service answering %s (rules the SDK also checks first)', async (code, status) => {
    h.mock().failNext({ method: 'POST', path: '/pos/v1/orders', status, error: code });
    const error = await h
      .client()
      .orders.create({ location_id: h.locationId(), total_cents: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status, code });
    expect((error as BadRequestError).requestId).toBeTruthy();
  });

  it('create: a failed creation carries its Idempotency-Key, and retrying with it creates one order', async () => {
    const client = h.client();
    const params = { location_id: h.locationId(), total_cents: 1_234 };
    h.mock().failNext({ method: 'POST', path: '/pos/v1/orders', status: 500 });
    const error = (await client.orders.create(params).catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    const [sent] = h.t.requests('POST', '/pos/v1/orders');
    expect(error.idempotencyKey).toBe(sent?.headers['idempotency-key']);
    expect(error.message).toContain(`idempotencyKey: '${error.idempotencyKey}'`);
    const first = await client.orders.create(params, { idempotencyKey: error.idempotencyKey });
    const again = await client.orders.create(params, { idempotencyKey: error.idempotencyKey });
    expect(again.order_id).toBe(first.order_id);
  });

  it('get: returns the order with its payments; order_not_found otherwise', async () => {
    const { orderId, paymentId } = await h.payment('approved', 3_000);
    const order = await h.client().orders.get(orderId);
    expect(order).toMatchObject({ order_id: orderId, status: 'paid', location_id: h.locationId() });
    expect(order.payments).toEqual([
      expect.objectContaining({ payment_id: paymentId, status: 'approved', amount_cents: 3_000 }),
    ]);
    await expect(h.client().orders.get(UNKNOWN_ID)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'order_not_found',
    });
  });
});
