// Create an order, charge it, and wait for the processor's answer.
// Run: npx tsx examples/charge-and-await.ts
import { dollars, type ExampleContext, runIfMain } from './support.js';

export async function chargeAndAwait({ client, locationId, pollIntervalMs, log }: ExampleContext) {
  const order = await client.orders.create({
    location_id: locationId,
    total_cents: 4_250,
    description: 'Oil change',
    external_reference: 'INV-2001',
  });
  log(`order ${order.order_id}: ${order.status}, ${dollars(order.total_cents)}`);

  const payment = await client.payments.create(order.order_id, {
    method: 'card',
    amount_cents: order.total_cents,
  });
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
