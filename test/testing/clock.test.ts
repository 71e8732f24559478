import { afterEach, describe, expect, it, vi } from 'vitest';
import { MockControlError } from '../../src/testing/index.js';
import { serveMock } from '../helpers/loopback-mock.js';
import { mintToken, newPayment, paymentPath, read, useMock } from './helpers.js';

const h = useMock({
  autoProcess: { approveAfterMs: 1_000, settleAfterMs: 5_000, refundAfterMs: 2_000 },
  clock: { realTime: false }, // a manual clock, asked for: demo mode alone follows real time
});
const status = async (ids: { orderId: string; paymentId: string }) =>
  (await h.call('GET', paymentPath(ids))).body.status;

afterEach(() => {
  vi.useRealTimers();
});

describe('one clock: demo outcomes, expiry and retries run on the mock clock only', () => {
  it('real time passing moves nothing on a manual clock; advancing the mock clock does', async () => {
    const ids = await newPayment(h);
    vi.useFakeTimers();
    vi.advanceTimersByTime(3_600_000);
    vi.useRealTimers();
    expect(await status(ids)).toBe('pending');
    h.mock.clock.advance(1_000);
    expect(await status(ids)).toBe('approved');
    h.mock.clock.advance(5_000);
    expect(await status(ids)).toBe('settled');
  });

  it('each due timer reads its own due time: approved and settled stamps in one long advance', async () => {
    const ids = await newPayment(h);
    const t0 = h.mock.clock.now();
    h.mock.clock.advance(60_000);
    const payment = h.mock.snapshot().payments.find((p) => p.payment_id === ids.paymentId)!;
    expect(payment.status).toBe('settled');
    expect(Date.parse(payment.settled_at!)).toBe(t0 + 6_000);
  });

  it('a real-time clock runs due work on its own', async () => {
    const served = await serveMock({ clock: { realTime: true }, autoProcess: { approveAfterMs: 20 } });
    const { mock, server } = served;
    try {
      const token = (await mintToken(server.url, mock.credentials)).body.access_token as string;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const post = async (path: string, body: unknown) =>
        (
          await read(
            await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
          )
        ).body;
      const order = await post('/pos/v1/orders', {
        location_id: mock.fixtures.partners[0]!.locations.payments,
        total_cents: 500,
      });
      const payment = await post(`/pos/v1/orders/${order.order_id}/payments`, {
        method: 'card',
        amount_cents: 500,
      });
      await vi.waitFor(() => expect(mock.snapshot().payments[0]?.status).toBe('approved'), {
        timeout: 2_000,
        interval: 10,
      });
      expect(mock.snapshot().payments[0]?.payment_id).toBe(payment.payment_id);
    } finally {
      await served.stop();
    }
  });
});

describe('reset() clears state in place', () => {
  it('keeps the same fixtures object, seeded ids and credentials, and forgets orders and timers', async () => {
    const fixtures = h.mock.fixtures;
    const before = JSON.stringify(fixtures);
    const ids = await newPayment(h);
    h.mock.reset();
    expect(h.mock.fixtures).toBe(fixtures);
    expect(JSON.stringify(h.mock.fixtures)).toBe(before);
    expect(h.mock.snapshot()).toMatchObject({ orders: [], payments: [], refunds: [] });
    h.mock.clock.advance(10_000); // the demo timers of the forgotten payment do not fire
    expect((await h.call('GET', paymentPath(ids))).status).toBe(404);
  });
});

describe('controls throw a typed MockControlError and change nothing', () => {
  it('409 conflict when the state does not fit, 404 for an unknown id, 400 for a bad argument', async () => {
    const ids = await newPayment(h);
    const conflict = (() => {
      try {
        h.mock.processor.settle(ids.paymentId);
      } catch (error) {
        return error;
      }
    })();
    expect(conflict).toBeInstanceOf(MockControlError);
    expect(conflict).toMatchObject({ code: 'conflict', status: 409 });
    expect(await status(ids)).toBe('pending');
    expect(() => h.mock.processor.approve('nope')).toThrow(
      expect.objectContaining({ code: 'not_found', status: 404 }),
    );
    expect(() => h.mock.processor.confirmRefund('nope')).toThrow(
      expect.objectContaining({ code: 'not_found', status: 404 }),
    );
    expect(() => h.mock.webhooks.replay('nope')).toThrow(expect.objectContaining({ status: 404 }));
    expect(() =>
      h.mock.webhooks.register({ partnerId: h.a().partnerId, url: 'http://example.com/h' }),
    ).toThrow(expect.objectContaining({ code: 'invalid', status: 400 }));
  });
});
