import { describe, expect, it } from 'vitest';
import { paymentPath, settledPayment, useMock } from './helpers.js';

const h = useMock();

describe('partner-scope isolation', () => {
  it("partner B can neither read nor change anything of partner A's", async () => {
    const a = h.mock.fixtures.partners[0]!;
    const b = h.mock.fixtures.partners[1]!;
    const ids = await settledPayment(h);
    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 100 } });
    const tokenB = await h.token(b.clients[0]);
    const asB = (method: string, path: string, body?: unknown) =>
      h.call(method, path, { token: tokenB, ...(body === undefined ? {} : { body }) });

    const attempts: [string, Promise<{ status: number; body: { error: string } }>, number, string][] = [
      ['get order', asB('GET', `/pos/v1/orders/${ids.orderId}`), 404, 'order_not_found'],
      [
        'create payment',
        asB('POST', `/pos/v1/orders/${ids.orderId}/payments`, { method: 'card', amount_cents: 1 }),
        404,
        'order_not_found',
      ],
      ['get payment', asB('GET', paymentPath(ids)), 404, 'order_not_found'],
      ['void payment', asB('POST', `${paymentPath(ids)}/void`), 404, 'order_not_found'],
      [
        'create refund',
        asB('POST', `${paymentPath(ids)}/refunds`, { amount_cents: 1 }),
        404,
        'order_not_found',
      ],
      [
        'get refund',
        asB('GET', `${paymentPath(ids)}/refunds/${refund.body.refund_id}`),
        404,
        'order_not_found',
      ],
      ['get location', asB('GET', `/pos/v1/locations/${a.locations.payments}`), 404, 'location_not_found'],
      [
        'create order',
        asB('POST', '/pos/v1/orders', { location_id: a.locations.payments, total_cents: 1 }),
        403,
        'location_out_of_scope',
      ],
      [
        'launch token',
        asB('POST', '/pos/v1/launch-tokens', { location_id: a.locations.payments }),
        403,
        'location_out_of_scope',
      ],
      [
        'webhook endpoint',
        asB('POST', `/admin/v1/partners/${a.partnerId}/webhook-endpoints`, { url: 'https://127.0.0.1:9/x' }),
        403,
        'permission_denied',
      ],
    ];
    for (const [what, answer, status, code] of attempts) {
      const { status: got, body } = await answer;
      expect([what, got, body.error]).toEqual([what, status, code]);
    }

    const list = await asB('GET', '/pos/v1/locations?limit=200');
    expect(list.body.total).toBe(b.locations.all.length);
    expect(list.body.items.map((l: { location_id: string }) => l.location_id).sort()).toEqual(
      [...b.locations.all].sort(),
    );

    const after = await h.call('GET', paymentPath(ids));
    expect(after.body.status).toBe('settled');
    const refundNow = await h.call('GET', `${paymentPath(ids)}/refunds/${refund.body.refund_id}`);
    expect(refundNow.body.status).toBe('pending');
    expect(h.mock.webhooks.events().every((e) => e.partner_id === a.partnerId)).toBe(true);
  });

  it('the same Idempotency-Key from two partners makes two orders', async () => {
    const headers = { 'idempotency-key': '3e1b6a7c-1111-4a2b-9c3d-444455556666' };
    const a = await h.call('POST', '/pos/v1/orders', {
      headers,
      body: { location_id: h.a().location, total_cents: 100 },
    });
    const b = h.mock.fixtures.partners[1]!;
    const fromB = await h.call('POST', '/pos/v1/orders', {
      token: await h.token(b.clients[0]),
      headers,
      body: { location_id: b.locations.payments, total_cents: 100 },
    });
    expect(fromB.status).toBe(201);
    expect(fromB.body.order_id).not.toBe(a.body.order_id);
  });
});
