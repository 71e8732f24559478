import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/testing/clock.js';
import { createMockService } from '../../src/testing/index.js';
import { MockState } from '../../src/testing/state.js';
import { WebhookDeliverer } from '../../src/testing/webhooks/deliverer.js';
import { EVENT_LOG_SIZE } from '../../src/testing/webhooks/deliveries.js';
import { newPayment, paymentPath, useMock } from './helpers.js';

// maxOrders: the mock keeps at most this many orders; the oldest goes first, with its payments,
// refunds, webhook deliveries and Idempotency-Key entry. The event log keeps the latest 10,000.

const h = useMock({ maxOrders: 3 });

describe('maxOrders (bounded memory)', () => {
  it('forgets the oldest order with its payments, refunds, deliveries and Idempotency-Key', async () => {
    h.mock.webhooks.register({ partnerId: h.a().partnerId, url: 'http://127.0.0.1:9/unreachable' });
    const first = await newPayment(h, 1_000, 1_000);
    h.mock.processor.approve(first.paymentId);
    h.mock.processor.settle(first.paymentId);
    const refund = await h.call('POST', `${paymentPath(first)}/refunds`, { body: { amount_cents: 400 } });
    h.mock.processor.confirmRefund(refund.body.refund_id);
    const key = { 'idempotency-key': '6a0e1f7c-1111-4a2b-9c3d-444455556666' };
    const keyed = await h.call('POST', '/pos/v1/orders', {
      headers: key,
      body: { location_id: h.a().location, total_cents: 200 },
    });
    const eventIds = h.mock.webhooks.events().map((e) => e.event_id);
    expect(eventIds).toHaveLength(3);
    const kept = [await newPayment(h), await newPayment(h)];
    expect(h.mock.snapshot().orders).toHaveLength(3);

    // One more order: the first goes, with all that hangs off it.
    const last = await newPayment(h);
    const snap = h.mock.snapshot();
    expect(snap.orders.map((o) => o.order_id)).toEqual([kept[0]!.orderId, kept[1]!.orderId, last.orderId]);
    expect(snap.payments.map((p) => p.payment_id)).not.toContain(first.paymentId);
    expect(snap.refunds).toEqual([]);
    expect(h.mock.webhooks.deliveries()).toEqual([]);
    // The event log is bounded on its own (the latest 10,000 events): the old events stay listed.
    expect(h.mock.webhooks.events().map((e) => e.event_id)).toEqual(eventIds);
    expect((await h.call('GET', `/pos/v1/orders/${first.orderId}`)).body.error).toBe('order_not_found');
    expect((await h.call('GET', `/pos/v1/orders/${keyed.body.order_id}`)).body.error).toBe('order_not_found');
    // The key went with its order: it makes a new order now, not a replay of a forgotten one.
    const again = await h.call('POST', '/pos/v1/orders', {
      headers: key,
      body: { location_id: h.a().location, total_cents: 200 },
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.order_id).not.toBe(keyed.body.order_id);
  });

  it('a forgotten payment never expires later (its timer went with it); refuses a maxOrders below 1', async () => {
    const first = await newPayment(h);
    for (let i = 0; i < 3; i++) await newPayment(h);
    h.mock.clock.advance(15 * 60_000);
    const expired = h.mock.webhooks.events().filter((e) => e.event_kind === 'payment.expired');
    expect(expired).toHaveLength(3);
    expect(expired.map((e) => e.resource.payment_id)).not.toContain(first.paymentId);
    expect(() => createMockService({ maxOrders: 0 })).toThrow(RangeError);
  });
});

describe('the event log', () => {
  it('keeps the latest 10,000 events, oldest first', () => {
    const clock = createClock();
    const deliverer = new WebhookDeliverer(clock, new MockState(), 1_000);
    const emit = (n: number) =>
      deliverer.emit({ kind: 'payment.approved', partnerId: 'p', resource: { payment_id: `pay_${n}` } });
    for (let n = 0; n < EVENT_LOG_SIZE + 5; n++) emit(n);
    const events = deliverer.emitted();
    expect(EVENT_LOG_SIZE).toBe(10_000);
    expect(events).toHaveLength(10_000);
    expect(events[0]!.resource.payment_id).toBe('pay_5');
    expect(events.at(-1)!.resource.payment_id).toBe('pay_10004');
  });
});
