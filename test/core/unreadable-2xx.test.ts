// Issue 10, the unreadable-2xx rule: a 2xx whose body is truncated or malformed JSON is an answer
// lost on the way. Safe calls (reads, void) retry it like a 5xx; orders.create retries it with the
// same Idempotency-Key; payments.create and refunds.create fail with outcomeUnknown (not retried).
import { HttpResponse, http } from 'msw';
import { beforeEach, expect, it, vi } from 'vitest';
import { InvalidResponseError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { LOCATION_ID, ORDER_ID, orderCreatedBody, PAYMENT_ID, paymentBody } from '../helpers/fixtures.js';
import { sequence } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const json = { 'content-type': 'application/json' };
const BODIES = {
  truncated: (full: unknown) => JSON.stringify(full).slice(0, 25),
  malformed: () => '{"order_id": 3f1c, }',
};
const paymentPath = `/pos/v1/orders/${ORDER_ID}/payments`;
const refundPath = `${paymentPath}/${PAYMENT_ID}/refunds`;
const voidPath = `${paymentPath}/${PAYMENT_ID}/void`;
const orderPath = `/pos/v1/orders/${ORDER_ID}`;
const getBody = {
  ...orderCreatedBody,
  location_id: LOCATION_ID,
  payments: [],
  updated_at: '2026-05-12T10:00:00Z',
};
const refundBody = {
  refund_id: '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
  payment_id: PAYMENT_ID,
  order_id: ORDER_ID,
  status: 'pending',
  amount_cents: 500,
  created_at: '2026-05-12T10:00:02Z',
};

for (const [name, unreadable] of Object.entries(BODIES)) {
  describeTransports(`a 2xx with a ${name} JSON body`, (t) => {
    beforeEach(() => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
    });
    const broken = (status: number, full: unknown) => () =>
      new HttpResponse(unreadable(full), { status, headers: json });

    it('orders.get: retried like a 5xx, then succeeds', async () => {
      t.use(sequence('get', `*${orderPath}`, [broken(200, getBody), () => HttpResponse.json(getBody)]));
      const order = await t.client().orders.get(ORDER_ID);
      expect(order.order_id).toBe(ORDER_ID);
      expect(t.requests('GET', orderPath)).toHaveLength(2);
    });

    it('payments.void: retried like a 5xx, then succeeds', async () => {
      const voided = { ...paymentBody, status: 'voided', voided_at: '2026-05-12T10:00:03Z' };
      t.use(sequence('post', `*${voidPath}`, [broken(200, voided), () => HttpResponse.json(voided)]));
      const payment = await t.client().payments.void(ORDER_ID, PAYMENT_ID);
      expect(payment.status).toBe('voided');
      expect(t.requests('POST', voidPath)).toHaveLength(2);
    });

    it('orders.create: retried with the same Idempotency-Key, then succeeds', async () => {
      t.use(
        sequence('post', '*/pos/v1/orders', [
          broken(201, orderCreatedBody),
          () => HttpResponse.json(orderCreatedBody, { status: 201 }),
        ]),
      );
      const order = await t.client().orders.create({ location_id: LOCATION_ID, total_cents: 12_500 });
      expect(order.order_id).toBe(ORDER_ID);
      const sent = t.requests('POST', '/pos/v1/orders');
      expect(sent).toHaveLength(2);
      expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    });

    it('orders.create: unreadable on every attempt ends with the key and an unknown outcome', async () => {
      t.use(http.post('*/pos/v1/orders', broken(201, orderCreatedBody)));
      const error = await caught(t.client().orders.create({ location_id: LOCATION_ID, total_cents: 12_500 }));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: expect.any(String) });
      expect(t.requests('POST', '/pos/v1/orders')).toHaveLength(3);
    });

    it('payments.create: not retried, outcome unknown', async () => {
      t.use(http.post(`*${paymentPath}`, broken(201, paymentBody)));
      const error = await caught(
        t.client().payments.create(ORDER_ID, { method: 'card', amount_cents: 12_500 }),
      );
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ outcomeUnknown: true });
      expect(t.requests('POST', paymentPath)).toHaveLength(1);
    });

    it('refunds.create: not retried, outcome unknown', async () => {
      t.use(http.post(`*${refundPath}`, broken(201, refundBody)));
      const error = await caught(
        t.client().refunds.create(ORDER_ID, PAYMENT_ID, { amount_cents: 500, reason: 'customer_request' }),
      );
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ outcomeUnknown: true });
      expect(t.requests('POST', refundPath)).toHaveLength(1);
    });
  });
}

describeTransports('a 2xx of the wrong shape is not a lost answer', (t) => {
  it('orders.get: thrown at once (the same request gets the same body)', async () => {
    t.use(http.get(`*${orderPath}`, () => HttpResponse.json({ unexpected: true })));
    const error = await caught(t.client().orders.get(ORDER_ID));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(t.requests('GET', orderPath)).toHaveLength(1);
  });
});
