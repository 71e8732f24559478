import type { MockServer, MockService } from '../../src/testing/index.js';

/** Calls the mock's API with the first partner's client. */
async function api(server: MockServer, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: scene code reads a few JSON fields
  return (await response.json()) as any;
}

/**
 * Fills a mock with something worth looking at: payments in several states, a pending and a
 * confirmed refund, a delivered webhook and a dead letter. The docs' screenshot and the browser
 * tests both start from it.
 */
export async function buildScene(
  mock: MockService,
  server: MockServer,
  receiverUrl: string,
  deadUrl: string,
) {
  const mint = async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: mock.credentials.clientId,
      client_secret: mock.credentials.clientSecret,
    });
    const minted = await fetch(`${server.authUrl}/oauth2/token`, { method: 'POST', body: form });
    return ((await minted.json()) as { access_token: string }).access_token;
  };
  let token = await mint();
  const partner = mock.fixtures.partners[0]!;
  const pay = async (description: string, cents: number) => {
    const order = await api(server, token, 'POST', '/pos/v1/orders', {
      location_id: partner.locations.payments,
      total_cents: cents,
      description,
    });
    const payment = await api(server, token, 'POST', `/pos/v1/orders/${order.order_id}/payments`, {
      method: 'card',
      amount_cents: cents,
    });
    return { orderId: order.order_id as string, paymentId: payment.payment_id as string };
  };
  mock.webhooks.register({ partnerId: partner.partnerId, url: receiverUrl });
  // A second endpoint that never answers 2xx: its delivery runs the whole retry schedule.
  mock.webhooks.register({ partnerId: partner.partnerId, url: deadUrl });
  const cancelled = await pay('Cabin air filter', 2_450);
  mock.processor.cancel(cancelled.paymentId);
  await mock.webhooks.flush();
  for (const delay of [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000]) {
    mock.clock.advance(delay);
    await mock.webhooks.flush();
  }
  token = await mint(); // the first token expired while the clock ran the retry schedule
  const settled = await pay('Brake pads and rotors', 42_950);
  mock.processor.approve(settled.paymentId);
  mock.processor.settle(settled.paymentId);
  const refundPath = `/pos/v1/orders/${settled.orderId}/payments/${settled.paymentId}/refunds`;
  const refund = await api(server, token, 'POST', refundPath, {
    amount_cents: 4_500,
    reason: 'customer_request',
  });
  mock.processor.confirmRefund(refund.refund_id);
  await api(server, token, 'POST', refundPath, { amount_cents: 2_000, reason: 'duplicate' });
  const declined = await pay('Tire rotation', 3_513);
  mock.processor.decline(declined.paymentId);
  const approved = await pay('Oil change', 8_999);
  mock.processor.approve(approved.paymentId);
  const pending = await pay('Wheel alignment', 12_000);
  await mock.webhooks.flush();
  return { token, settled, approved, declined, pending, cancelled };
}
