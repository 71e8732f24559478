import { describe, expect, it } from 'vitest';
import { PAYMENT_MOVES, type PaymentMove } from '../../src/testing/domain/payments.js';
import { MockControlError } from '../../src/testing/index.js';
import { newPayment, paymentPath, useMock } from './helpers.js';

// Every payment transition goes through one table (src/testing/domain/payments.ts PAYMENT_MOVES):
// the processor controls, the API's void and the hosted checkout page all call movePayment. These
// tests drive each door and check they follow the same table.

const h = useMock();

type Status = 'pending' | 'approved' | 'settled' | 'voided' | 'declined';

/** A payment in `status`, reached through the processor controls and the API. */
async function paymentIn(status: Status) {
  const ids = await newPayment(h);
  const { processor } = h.mock;
  if (status === 'approved' || status === 'settled') processor.approve(ids.paymentId);
  if (status === 'settled') processor.settle(ids.paymentId);
  if (status === 'declined') processor.decline(ids.paymentId);
  if (status === 'voided') await h.call('POST', `${paymentPath(ids)}/void`);
  return ids;
}

const PROCESSOR_CALL: Partial<
  Record<PaymentMove, 'approve' | 'decline' | 'fail' | 'settle' | 'cancel' | 'expire'>
> = {
  approved: 'approve',
  declined: 'decline',
  failed: 'fail',
  settled: 'settle',
  cancelled: 'cancel',
  expired: 'expire',
};
const STATUSES: Status[] = ['pending', 'approved', 'settled', 'voided', 'declined'];

describe('the processor follows the transition table', () => {
  const cases = Object.entries(PROCESSOR_CALL).flatMap(([to, call]) =>
    STATUSES.map((from) => [call!, from, to as PaymentMove] as const),
  );
  it.each(cases)('processor.%s on a %s payment', async (call, from, to) => {
    const ids = await paymentIn(from);
    const before = (await h.call('GET', paymentPath(ids))).body;
    const events = h.mock.webhooks.events().length;
    const allowed = (PAYMENT_MOVES[to].from as readonly string[]).includes(from);
    if (allowed) {
      h.mock.processor[call](ids.paymentId);
      expect((await h.call('GET', paymentPath(ids))).body.status).toBe(to);
      const fired = h.mock.webhooks
        .events()
        .slice(events)
        .map((e) => e.event_kind);
      expect(fired).toEqual(PAYMENT_MOVES[to].event ? [PAYMENT_MOVES[to].event] : []);
    } else {
      expect(() => h.mock.processor[call](ids.paymentId)).toThrow(MockControlError);
      expect((await h.call('GET', paymentPath(ids))).body).toEqual(before);
      expect(h.mock.webhooks.events()).toHaveLength(events);
    }
  });
});

describe("the API's void follows the same table", () => {
  it.each(STATUSES)('void of a %s payment', async (from) => {
    const ids = await paymentIn(from);
    const events = h.mock.webhooks.events().length;
    const answer = await h.call('POST', `${paymentPath(ids)}/void`);
    const allowed = (PAYMENT_MOVES.voided.from as readonly string[]).includes(from);
    if (allowed || from === 'voided') {
      expect(answer.status).toBe(201);
      expect(answer.body.status).toBe('voided');
      const fired = h.mock.webhooks.events().slice(events);
      expect(fired.map((e) => e.event_kind)).toEqual(allowed ? ['payment.voided'] : []);
      // A voided payment is final for the processor too.
      expect(() => h.mock.processor.approve(ids.paymentId)).toThrow(MockControlError);
      expect(() => h.mock.processor.settle(ids.paymentId)).toThrow(MockControlError);
    } else {
      expect(answer.status).toBe(from === 'settled' ? 409 : 422);
      expect(h.mock.webhooks.events()).toHaveLength(events);
    }
  });

  it('a voided payment carries voided_at, the same time as its updated_at and its order', async () => {
    const ids = await paymentIn('approved');
    h.mock.clock.advance(5_000);
    const voided = await h.call('POST', `${paymentPath(ids)}/void`);
    const payment = (await h.call('GET', paymentPath(ids))).body;
    expect(voided.body.voided_at).toBe(h.mock.clock.iso());
    expect(payment.updated_at).toBe(voided.body.voided_at);
    const order = (await h.call('GET', `/pos/v1/orders/${ids.orderId}`)).body;
    expect(order.updated_at).toBe(voided.body.voided_at);
  });
});
