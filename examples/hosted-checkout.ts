// Hosted checkout: a small shop server sends the customer to the hosted payment page and confirms
// the return through the API. Against the mock, a scripted "browser" pays with a test card.
// Run: npx tsx examples/hosted-checkout.ts
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { confirmHostedCheckoutReturn, type PaymentsClient } from 'partner-payments';
import { type ExampleContext, runIfMain } from './support.js';

/** The shop: `/checkout` starts a payment, `/checkout/return` and `/checkout/cancel` end it. */
export async function startShop(client: PaymentsClient, locationId: string) {
  const sessions = new Map<string, string>(); // session id -> order id
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', origin);
      const sid = /sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
      if (url.pathname === '/checkout') {
        const order = await client.orders.create({
          location_id: locationId,
          total_cents: 3_150,
          description: 'Two wiper blades',
          return_url: `${origin}/checkout/return`,
          cancel_url: `${origin}/checkout/cancel`,
        });
        if (!order.hosted_checkout_url) throw new Error('no hosted checkout URL was generated');
        const session = randomUUID();
        sessions.set(session, order.order_id);
        // The URL carries a signed single-use token: redirect to it, never log it.
        res.writeHead(302, {
          location: order.hosted_checkout_url,
          'set-cookie': `sid=${session}; HttpOnly; Path=/`,
        });
        res.end();
      } else if (url.pathname === '/checkout/return') {
        // status=paid in the query proves nothing: confirm through the API, for this session's order.
        const result = await confirmHostedCheckoutReturn(client, url, {
          expectedOrderId: sid && sessions.get(sid),
        });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(
          result.paid
            ? `paid: order ${result.orderId}`
            : `not paid: order ${result.orderId} is ${result.order.status}`,
        );
      } else if (url.pathname === '/checkout/cancel') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('cancelled');
      } else {
        res.writeHead(404).end();
      }
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(error instanceof Error ? error.message : 'error');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A scripted browser: follows the shop's redirect, fills in the hosted card form, follows the way back. */
export async function payInBrowser(shopOrigin: string, card: string, action: 'pay' | 'cancel' = 'pay') {
  const start = await fetch(`${shopOrigin}/checkout`, { redirect: 'manual' });
  const cookie = start.headers.get('set-cookie')?.split(';')[0] ?? '';
  const pageUrl = start.headers.get('location')!;
  const page = await (await fetch(pageUrl)).text();
  const formAction = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&');
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1];
  if (!formAction || !token) throw new Error('the hosted page has no card form');
  const submitted = await fetch(new URL(formAction, pageUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, card_number: card, expiry: '12/30', cvc: '123', action }),
    redirect: 'manual',
  });
  const back = submitted.headers.get('location');
  if (!back) return { pageUrl, landedOn: null, shopSays: await submitted.text() };
  const landing = await fetch(back, { headers: { cookie } });
  return { pageUrl, landedOn: back, shopSays: await landing.text() };
}

export async function hostedCheckout({ client, locationId, mock, log }: ExampleContext) {
  const shop = await startShop(client, locationId);
  log(`shop listening on ${shop.origin}`);
  try {
    if (!mock) {
      log(`open ${shop.origin}/checkout in a browser; press Ctrl+C when done`);
      await new Promise(() => {});
    }
    const paid = await payInBrowser(shop.origin, '4242424242424242');
    log(`browser came back to ${paid.landedOn?.replace(/\?.*/, '?…')}; the shop says "${paid.shopSays}"`);
    const cancelled = await payInBrowser(shop.origin, '', 'cancel');
    log(`cancel: the shop says "${cancelled.shopSays}"`);
    const second = await fetch(paid.pageUrl);
    log(`second visit to the used checkout URL: ${second.status}`);
    return { paid, cancelled, secondVisitStatus: second.status };
  } finally {
    await shop.close();
  }
}

runIfMain(import.meta.url, hostedCheckout);
