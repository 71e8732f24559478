// Create an order and charge it under one key of yours, then wait for the processor's answer.
// Run: npx tsx examples/charge-and-await.ts
import { dollars, type ExampleContext, runIfMain } from './support.js';

export async function chargeAndAwait({ client, locationId, pollIntervalMs, log }: ExampleContext) {
  // One key for the order and its payment: your invoice's id. Rerun this after any failure and the
  // card is charged once (docs/idempotency.md, "One key for the whole charge").
  const invoice = `INV-${Date.now()}`;
  const { order, payment } = await client.charge({
    idempotencyKey: `invoice-${invoice}`,
    order: {
      location_id: locationId,
      total_cents: 4_250,
      description: 'Oil change',
      external_reference: invoice,
    },
  });
  log(`order ${order.order_id}: ${order.status}, ${dollars(order.total_cents)}`);
  log(`payment ${payment.payment_id}: ${payment.status}`);

  const result = await client.awaitPaymentResult(order.order_id, payment.payment_id, {
    intervalMs: pollIntervalMs,
    onPoll: ({ attempt, status }) => log(`  poll ${attempt}: ${status ?? 'no answer'}`),
  });
  log(`payment ${result.payment_id}: ${result.status}`);

  const after = await client.orders.get(order.order_id);
  log(`order ${after.order_id}: ${after.status}`);
  return { order: after, payment: result };
}

runIfMain(import.meta.url, chargeAndAwait);
