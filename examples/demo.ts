// The whole payment lifecycle against the embedded mock service, with readable output.
// Run: npx tsx examples/demo.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDeduplicator, verifyWebhook, type WebhookEvent } from 'partner-payments/webhooks';
import { payInBrowser, startShop } from './hosted-checkout.js';
import { awaitSettled } from './refund-and-void.js';
import { dollars, startExample } from './support.js';

const step = (n: number, title: string) => console.log(`\n${n}. ${title}`);
const say = (line: string) => console.log(`   ${line}`);

/** A webhook receiver on loopback: verifies every delivery, ignores redeliveries, records events. */
async function startReceiver(getSecret: () => string) {
  const events: WebhookEvent[] = [];
  const waiters: { match: (e: WebhookEvent) => boolean; resolve: (e: WebhookEvent) => void }[] = [];
  const dedupe = createDeduplicator();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const event = verifyWebhook(Buffer.concat(chunks), req.headers['x-service-signature'], getSecret());
      res.writeHead(200).end();
      if (!(await dedupe.claim(event.event_id))) return;
      events.push(event);
      say(
        `webhook received and verified: ${event.event_kind} (${event.resource.status}), event ${event.event_id}`,
      );
      for (const w of waiters.filter((w) => w.match(event))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    } catch {
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    events,
    /** Resolves with the first event (already received or still to come) that matches. */
    waitFor(kind: string, paymentId: string) {
      const match = (e: WebhookEvent) => e.event_kind === kind && e.resource.payment_id === paymentId;
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<WebhookEvent>((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main() {
  const ctx = await startExample(say);
  const { client, locationId, pollIntervalMs, mock } = ctx;
  if (!mock) throw new Error('the demo runs against the embedded mock: unset PAYMENTS_BASE_URL');
  let secret = '';
  const receiver = await startReceiver(() => secret);
  const partnerId = mock.fixtures.partners[0]!.partnerId;
  secret = mock.webhooks.register({ partnerId, url: receiver.url }).signing_secret;
  say(`webhook receiver on ${receiver.url} (registered; its signing secret is kept out of the output)`);
  client.on('retry', (e) => say(`(retrying ${e.method} ${e.path} in ${e.delayMs} ms: ${e.reason})`));

  try {
    step(1, 'Create an order');
    const order = await client.orders.create({
      location_id: locationId,
      total_cents: 8_000,
      description: 'Brake pads and labour',
      external_reference: 'INV-3001',
      customer_email: 'pat@example.com',
    });
    say(`order ${order.order_id}: ${order.status}, ${dollars(order.total_cents)}`);

    step(2, 'Pay by card and await the result');
    const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: 8_000 });
    say(`payment ${payment.payment_id}: ${payment.status}`);
    const result = await client.awaitPaymentResult(order.order_id, payment.payment_id, {
      intervalMs: pollIntervalMs,
      onPoll: ({ attempt, status, elapsedMs }) => say(`poll ${attempt} after ${elapsedMs} ms: ${status}`),
    });
    say(`result: ${result.status}`);

    step(3, 'Receive and verify the payment.approved webhook');
    await receiver.waitFor('payment.approved', payment.payment_id);

    step(4, 'Refund part of the payment once it has settled');
    await awaitSettled(client, order.order_id, payment.payment_id, pollIntervalMs);
    say('payment settled');
    const refund = await client.refunds.create(order.order_id, payment.payment_id, {
      amount_cents: 3_000,
      reason: 'customer_request',
    });
    say(`refund ${refund.refund_id} of ${dollars(refund.amount_cents)}: ${refund.status}`);

    step(5, 'Await the refund');
    const refunded = await client.awaitRefundResult(order.order_id, payment.payment_id, refund.refund_id, {
      intervalMs: pollIntervalMs,
    });
    say(`refund: ${refunded.status}`);
    await receiver.waitFor('payment.refunded', payment.payment_id);
    const afterRefund = await client.payments.get(order.order_id, payment.payment_id);
    say(
      `payment after a partial refund: ${afterRefund.status} (refunded only when refunds reach the amount)`,
    );

    step(6, 'Void a second payment before settlement');
    const second = await client.orders.create({ location_id: locationId, total_cents: 1_500 });
    const secondPayment = await client.payments.create(second.order_id, {
      method: 'card',
      amount_cents: 1_500,
    });
    const voided = await client.payments.void(second.order_id, secondPayment.payment_id);
    say(`payment ${voided.payment_id}: ${voided.status} at ${voided.voided_at}`);
    await receiver.waitFor('payment.voided', secondPayment.payment_id);

    step(7, 'Hosted checkout round trip, driven over HTTP');
    const shop = await startShop(client, locationId);
    try {
      const visit = await payInBrowser(shop.origin, '4242424242424242');
      say(
        `browser paid with a test card and came back; the shop confirmed through the API: "${visit.shopSays}"`,
      );
      const orderId = /order ([\w-]+)/.exec(visit.shopSays)?.[1] ?? '';
      const paid = await client.orders.get(orderId);
      const approved = paid.payments.find((p) => p.status === 'approved' || p.status === 'settled');
      if (approved) await receiver.waitFor('payment.approved', approved.payment_id);
      say(`second visit to the used checkout URL: ${(await fetch(visit.pageUrl)).status} (single use)`);
    } finally {
      await shop.close();
    }

    step(8, 'Summary');
    say(
      `${receiver.events.length} webhook events verified: ${[...new Set(receiver.events.map((e) => e.event_kind))].join(', ')}`,
    );
    say('done');
  } finally {
    await receiver.close();
    await ctx.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
