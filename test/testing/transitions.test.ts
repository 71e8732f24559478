import { describe, expect, it } from 'vitest';
import { MockControlError } from '../../src/testing/index.js';
import { eventKinds, type MockHarness, newPayment, paymentPath, settledPayment, useMock } from './helpers.js';

const h = useMock();

type Ids = { orderId: string; paymentId: string };

async function statusOf(h: MockHarness, ids: Ids) {
  const payment = await h.call('GET', paymentPath(ids));
  const order = await h.call('GET', `/pos/v1/orders/${ids.orderId}`);
  return { payment: payment.body.status as string, order: order.body.status as string };
}

/** Table 3.1 (payments) with the order status of api.md section 9 and the events each row fires. */
const PAYMENT_ROWS: {
  row: string;
  run: (h: MockHarness) => Promise<Ids>;
  payment: string;
  order: string;
  events: string[];
}[] = [
  {
    row: '(new) -> pending on create',
    run: (h) => newPayment(h),
    payment: 'pending',
    order: 'pending',
    events: [],
  },
  {
    row: 'pending -> approved when the processor approves',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.approve(ids.paymentId);
      return ids;
    },
    payment: 'approved',
    order: 'paid',
    events: ['payment.approved'],
  },
  {
    row: 'pending -> voided on void',
    run: async (h) => {
      const ids = await newPayment(h);
      await h.call('POST', `${paymentPath(ids)}/void`);
      return ids;
    },
    payment: 'voided',
    order: 'voided',
    events: ['payment.voided'],
  },
  {
    row: 'approved -> voided on void (not yet settled)',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.approve(ids.paymentId);
      await h.call('POST', `${paymentPath(ids)}/void`);
      return ids;
    },
    payment: 'voided',
    order: 'voided',
    events: ['payment.approved', 'payment.voided'],
  },
  {
    row: 'settled stays settled when voided (409)',
    run: async (h) => {
      const ids = await settledPayment(h);
      await h.call('POST', `${paymentPath(ids)}/void`);
      return ids;
    },
    payment: 'settled',
    order: 'paid',
    events: ['payment.approved'],
  },
  {
    row: 'pending -> cancelled by an operator',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.cancel(ids.paymentId);
      return ids;
    },
    payment: 'cancelled',
    order: 'cancelled',
    events: ['payment.cancelled'],
  },
  {
    row: 'pending -> expired when the 15-minute TTL elapses on the mock clock',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.clock.advance(15 * 60_000);
      return ids;
    },
    payment: 'expired',
    order: 'cancelled',
    events: ['payment.expired'],
  },
  {
    row: 'settled -> refunded when a full refund is confirmed',
    run: async (h) => {
      const ids = await settledPayment(h);
      const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 10_000 } });
      h.mock.processor.confirmRefund(refund.body.refund_id);
      return ids;
    },
    payment: 'refunded',
    order: 'refunded',
    events: ['payment.approved', 'payment.refunded', 'payment.reversal_settled'],
  },
  {
    row: 'settled stays settled after a confirmed partial refund',
    run: async (h) => {
      const ids = await settledPayment(h);
      const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 2_500 } });
      h.mock.processor.confirmRefund(refund.body.refund_id);
      return ids;
    },
    payment: 'settled',
    order: 'paid',
    events: ['payment.approved', 'payment.refunded', 'payment.reversal_settled'],
  },
  {
    row: 'approved -> settled (processor batch)',
    run: (h) => settledPayment(h),
    payment: 'settled',
    order: 'paid',
    events: ['payment.approved'],
  },
  {
    row: 'pending -> declined (no event; the order is open again)',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.decline(ids.paymentId);
      return ids;
    },
    payment: 'declined',
    order: 'open',
    events: [],
  },
  {
    row: 'pending -> failed (no event: payment.failed is not delivered)',
    run: async (h) => {
      const ids = await newPayment(h);
      h.mock.processor.fail(ids.paymentId);
      return ids;
    },
    payment: 'failed',
    order: 'open',
    events: [],
  },
  {
    row: 'approved on part of the total -> order partially_paid',
    run: async (h) => {
      const ids = await newPayment(h, 4_000, 10_000);
      h.mock.processor.approve(ids.paymentId);
      return ids;
    },
    payment: 'approved',
    order: 'partially_paid',
    events: ['payment.approved'],
  },
];

describe('state machines (spec 3.1, 3.2, api.md 9)', () => {
  it.each(PAYMENT_ROWS.map((r) => [r.row, r] as const))('%s', async (_row, r) => {
    const ids = await r.run(h);
    expect(await statusOf(h, ids)).toEqual({ payment: r.payment, order: r.order });
    expect(eventKinds(h)).toEqual(r.events);
    for (const event of h.mock.webhooks.events()) expect(event.resource.payment_id).toBe(ids.paymentId);
  });

  it('(new) order -> open, with the create response carrying status open', async () => {
    const created = await h.call('POST', '/pos/v1/orders', {
      body: { location_id: h.a().location, total_cents: 500 },
    });
    expect(created.body).toMatchObject({ status: 'open', total_cents: 500 });
    expect((await h.call('GET', `/pos/v1/orders/${created.body.order_id}`)).body.status).toBe('open');
  });

  it('a payment does not expire a moment before its TTL', async () => {
    const ids = await newPayment(h);
    h.mock.clock.advance(15 * 60_000 - 1);
    expect((await statusOf(h, ids)).payment).toBe('pending');
    expect(eventKinds(h)).toEqual([]);
  });

  it('void is idempotent: a second void answers the same and fires no second event', async () => {
    const ids = await newPayment(h);
    const first = await h.call('POST', `${paymentPath(ids)}/void`);
    const second = await h.call('POST', `${paymentPath(ids)}/void`);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      payment_id: ids.paymentId,
      status: 'voided',
      voided_at: expect.any(String),
    });
    expect(second.body).toEqual(first.body);
    expect(eventKinds(h)).toEqual(['payment.voided']);
  });

  it.each([
    ['settle', 'pending'],
    ['approve', 'approved'],
    ['cancel', 'approved'],
  ] as const)('processor.%s on a %s payment throws MockControlError', async (action, from) => {
    const ids = await newPayment(h);
    if (from === 'approved') h.mock.processor.approve(ids.paymentId);
    expect(() => h.mock.processor[action](ids.paymentId)).toThrow(MockControlError);
  });
});

describe('refund statuses (spec 3.3)', () => {
  async function pendingRefund() {
    const ids = await settledPayment(h);
    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, {
      body: { amount_cents: 1_000, reason: 'customer_request' },
    });
    return { ids, refundId: refund.body.refund_id as string, created: refund };
  }
  const readRefund = (ids: Ids, refundId: string) => h.call('GET', `${paymentPath(ids)}/refunds/${refundId}`);

  it('(new) -> pending, processed asynchronously, no event yet', async () => {
    const { ids, created } = await pendingRefund();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      amount_cents: 1_000,
      reason: 'customer_request',
      order_id: ids.orderId,
    });
    expect(eventKinds(h)).toEqual(['payment.approved']);
  });

  it('pending -> approved when the processor confirms; fires payment.refunded', async () => {
    const { ids, refundId } = await pendingRefund();
    h.mock.processor.confirmRefund(refundId);
    expect((await readRefund(ids, refundId)).body).toMatchObject({
      status: 'approved',
      processor_message: null,
    });
    expect(eventKinds(h)).toEqual(['payment.approved', 'payment.refunded', 'payment.reversal_settled']);
  });

  it('pending -> failed when the processor rejects; processor_message explains; reversal_failed fires', async () => {
    const { ids, refundId } = await pendingRefund();
    h.mock.processor.rejectRefund(refundId, 'Card account closed');
    expect((await readRefund(ids, refundId)).body).toMatchObject({
      status: 'failed',
      processor_message: 'Card account closed',
    });
    expect(eventKinds(h)).toEqual(['payment.approved', 'payment.reversal_failed']);
    expect((await statusOf(h, ids)).payment).toBe('settled');
  });
});
