import { expect, it } from 'vitest';
import { BadRequestError, ConflictError, NotFoundError, UnprocessableEntityError } from '../../src/index.js';
import { describeWithMock, UNKNOWN_ID } from './mock-harness.js';

describeWithMock('payments', (h) => {
  it('create: a pending card payment, sent once', async () => {
    const { orderId } = await h.order(4_000);
    const payment = await h.client().payments.create(orderId, { method: 'card', amount_cents: 1_500 });
    expect(payment).toMatchObject({
      order_id: orderId,
      status: 'pending',
      amount_cents: 1_500,
      method: 'card',
    });
    expect(h.t.requests('POST', `/pos/v1/orders/${orderId}/payments`)).toHaveLength(1);
  });

  it('create: amount_exceeds_order_total above the unpaid remainder', async () => {
    const { orderId } = await h.order(4_000);
    const client = h.client();
    const first = await client.payments.create(orderId, { method: 'card', amount_cents: 3_000 });
    h.mock().processor.approve(first.payment_id);
    const error = await client.payments
      .create(orderId, { method: 'card', amount_cents: 1_001 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'amount_exceeds_order_total' });
  });

  it('create: order_already_paid, order_not_open, order_not_found', async () => {
    const client = h.client();
    const paid = await h.payment('approved', 2_000);
    await expect(
      client.payments.create(paid.orderId, { method: 'card', amount_cents: 1 }),
    ).rejects.toMatchObject({
      constructor: ConflictError,
      code: 'order_already_paid',
    });
    const voided = await h.payment('pending', 2_000);
    await client.payments.void(voided.orderId, voided.paymentId);
    await expect(
      client.payments.create(voided.orderId, { method: 'card', amount_cents: 1 }),
    ).rejects.toMatchObject({
      constructor: ConflictError,
      code: 'order_not_open',
    });
    await expect(
      client.payments.create(UNKNOWN_ID, { method: 'card', amount_cents: 1 }),
    ).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'order_not_found',
    });
  });

  it('create: maps invalid_request from the service', async () => {
    const { orderId } = await h.order();
    h.mock().failNext({ method: 'POST', path: /\/payments$/, status: 400, error: 'invalid_request' });
    await expect(
      h.client().payments.create(orderId, { method: 'card', amount_cents: 1 }),
    ).rejects.toMatchObject({
      constructor: BadRequestError,
      code: 'invalid_request',
    });
  });

  it('get: reads the payment with processor_reference; payment_not_found for another order', async () => {
    const { orderId, paymentId } = await h.payment('approved');
    const payment = await h.client().payments.get(orderId, paymentId);
    expect(payment).toMatchObject({ payment_id: paymentId, status: 'approved' });
    expect(payment.updated_at).toEqual(expect.any(String));
    const other = await h.order();
    await expect(h.client().payments.get(other.orderId, paymentId)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'payment_not_found',
    });
  });

  it('void: voids before settlement, twice with the same answer; payment_already_settled after', async () => {
    const client = h.client();
    const { orderId, paymentId } = await h.payment('approved');
    const first = await client.payments.void(orderId, paymentId);
    expect(first).toMatchObject({ payment_id: paymentId, status: 'voided' });
    expect(await client.payments.void(orderId, paymentId)).toEqual(first);
    const settled = await h.payment('settled');
    const error = await client.payments.void(settled.orderId, settled.paymentId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'payment_already_settled' });
    await expect(client.payments.void(orderId, UNKNOWN_ID)).rejects.toMatchObject({
      code: 'payment_not_found',
    });
  });

  it('refunds.create: validation_error above the refundable remainder (api.md section 9)', async () => {
    const client = h.client();
    const { orderId, paymentId } = await h.payment('settled', 5_000);
    await client.refunds.create(orderId, paymentId, { amount_cents: 4_000 });
    const error = await client.refunds
      .create(orderId, paymentId, { amount_cents: 1_001 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, code: 'validation_error' });
  });
});
