import { beforeEach, describe, expect, it } from 'vitest';
import { payInBrowser, startShop } from '../examples/hosted-checkout.js';
import {
  confirmHostedCheckoutReturn,
  PaymentsClient,
  RequestValidationError,
  SCOPES,
  verifyWebhook,
} from '../src/index.js';
import type { MockService } from '../src/testing/index.js';
import { loopbackMock } from './helpers/loopback-mock.js';
import { startReceiver } from './testing/receiver.js';

describe('hosted checkout, end to end over HTTP', () => {
  const loop = loopbackMock({}, { per: 'test' });
  let mock: MockService;
  let client: PaymentsClient;
  beforeEach(() => {
    mock = loop.mock;
    client = new PaymentsClient({ ...loop.clientOptions(), scopes: [...SCOPES] });
  });

  it('pays on the real page, returns with status=paid, delivers a verified payment.approved, and is single use', async () => {
    const receiver = await startReceiver();
    try {
      const partnerId = mock.fixtures.partners[0]!.partnerId;
      const { signing_secret: secret } = mock.webhooks.register({ partnerId, url: receiver.url });
      const shop = await startShop(client, mock.fixtures.partners[0]!.locations.payments);
      const visit = await payInBrowser(shop.origin, '4242424242424242').finally(() => shop.close());

      expect(visit.landedOn).toMatch(
        new RegExp(`^${shop.origin}/checkout/return\\?order_id=[0-9a-f-]{36}&status=paid$`),
      );
      expect(visit.shopSays).toMatch(/^paid: order /);
      const orderId = new URL(visit.landedOn!).searchParams.get('order_id')!;

      await mock.webhooks.flush();
      const events = receiver.received.map((r) =>
        verifyWebhook(r.body, r.headers['x-service-signature'], secret),
      );
      expect(events).toEqual([
        expect.objectContaining({
          event_kind: 'payment.approved',
          resource: expect.objectContaining({ order_id: orderId }),
        }),
      ]);

      expect((await fetch(visit.pageUrl)).status).toBe(410);
    } finally {
      await receiver.close();
    }
  });

  it('a declined card stays on the page; cancel goes to cancel_url', async () => {
    const shop = await startShop(client, mock.fixtures.partners[0]!.locations.payments);
    try {
      const declined = await payInBrowser(shop.origin, '4000000000000002');
      expect(declined.landedOn).toBeNull();
      expect(declined.shopSays).toMatch(/<form/);
      const cancelled = await payInBrowser(shop.origin, '', 'cancel');
      expect(cancelled.landedOn).toBe(`${shop.origin}/checkout/cancel`);
    } finally {
      await shop.close();
    }
  });

  it('confirmHostedCheckoutReturn refuses a forged status=paid for an unpaid order', async () => {
    const order = await client.orders.create({
      location_id: mock.fixtures.partners[0]!.locations.payments,
      total_cents: 1_000,
      return_url: 'https://shop.example.com/return',
      cancel_url: 'https://shop.example.com/cancel',
    });
    const forged = `https://shop.example.com/return?order_id=${order.order_id}&status=paid`;
    const result = await confirmHostedCheckoutReturn(client, forged, { expectedOrderId: order.order_id });
    expect(result).toMatchObject({ paid: false, claimedStatus: 'paid', orderId: order.order_id });
    expect(result.order.status).toBe('open');
  });

  it('confirmHostedCheckoutReturn refuses another order than the session one, and a URL without an order', async () => {
    const other = '00000000-0000-4000-8000-0000000000aa';
    const mine = '00000000-0000-4000-8000-0000000000bb';
    await expect(
      confirmHostedCheckoutReturn(client, `https://shop.example.com/return?order_id=${other}&status=paid`, {
        expectedOrderId: mine,
      }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    await expect(confirmHostedCheckoutReturn(client, '/return?status=paid')).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });
});
