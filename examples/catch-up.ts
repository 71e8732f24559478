// Catching up on lost webhooks: payments approved while the receiver was unreachable are handed to
// the webhook handler's own callbacks once, by `handler.catchUp(client)`; a second pass runs nothing.
// Run: npx tsx examples/catch-up.ts
import { createWebhookHandler, isCatchUpEvent, type WebhookEventOf } from 'partner-payments/webhooks';
import { type ExampleContext, runIfMain } from './support.js';

export async function catchUpExample({ client, locationId, pollIntervalMs, log }: ExampleContext) {
  const fulfilled: string[] = [];
  const webhooks = createWebhookHandler({
    secret: process.env.PAYMENTS_WEBHOOK_SECRET ?? 'whsec_example',
    on: {
      'payment.approved': (event: WebhookEventOf<'payment.approved'>) => {
        fulfilled.push(event.resource.order_id);
        log(`fulfil order ${event.resource.order_id}${isCatchUpEvent(event) ? ' (caught up)' : ''}`);
      },
    },
  });

  // Three charges under keys; no webhook endpoint is registered here, so every webhook is "lost".
  for (const cart of ['cart-1', 'cart-2', 'cart-3']) {
    await client.charge({
      idempotencyKey: `catch-up-example-${cart}-${Date.now()}`,
      order: { location_id: locationId, total_cents: 2_500 },
      awaitResult: { intervalMs: pollIntervalMs, maxWaitMs: 40 * pollIntervalMs },
    });
  }

  // What a timer or cron job runs (olderThanMs: 0 only because this example cannot wait a minute).
  const first = await webhooks.catchUp(client, { olderThanMs: 0 });
  log(`first pass: ${first.checked} checked, ${first.delivered} delivered, ${first.pending} pending`);
  const second = await webhooks.catchUp(client, { olderThanMs: 0 });
  log(`second pass: ${second.delivered} delivered`);
  return { first, second, fulfilled };
}

runIfMain(import.meta.url, catchUpExample);
