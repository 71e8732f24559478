// Void a payment before settlement; refund one after, in two parts.
// Run: npx tsx examples/refund-and-void.ts
import { ConflictError, type PaymentsClient } from 'partner-payments';
import { dollars, type ExampleContext, runIfMain } from './support.js';

async function charge(client: PaymentsClient, locationId: string, cents: number, pollIntervalMs: number) {
  const order = await client.orders.create({ location_id: locationId, total_cents: cents });
  const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: cents });
  return { orderId: order.order_id, paymentId: payment.payment_id, pollIntervalMs };
}

/** Settlement happens in processor batches: read the payment until it is settled. */
export async function awaitSettled(
  client: PaymentsClient,
  orderId: string,
  paymentId: string,
  intervalMs: number,
) {
  // A refund needs a settled payment: wait for it. A status that can never settle (declined,
  // voided, ...) ends the wait at once, so check what came back.
  const payment = await client.awaitPaymentResult(orderId, paymentId, {
    until: ['settled'],
    intervalMs,
    maxWaitMs: 40 * intervalMs,
  });
  if (payment.status !== 'settled')
    throw new Error(`payment ${paymentId} is ${payment.status}: it will not settle`);
  return payment;
}

export async function refundAndVoid({ client, locationId, pollIntervalMs, log }: ExampleContext) {
  // Void: before settlement (pending or approved), voiding cancels the charge outright.
  const toVoid = await charge(client, locationId, 1_999, pollIntervalMs);
  const voided = await client.payments.void(toVoid.orderId, toVoid.paymentId);
  log(`voided payment ${voided.payment_id} at ${voided.voided_at}: ${voided.status}`);

  // Refund: after settlement. A void is refused then with payment_already_settled.
  const paid = await charge(client, locationId, 6_000, pollIntervalMs);
  await client.awaitPaymentResult(paid.orderId, paid.paymentId, { intervalMs: pollIntervalMs });
  await awaitSettled(client, paid.orderId, paid.paymentId, pollIntervalMs);
  log(`payment ${paid.paymentId} settled`);
  try {
    await client.payments.void(paid.orderId, paid.paymentId);
  } catch (error) {
    if (!(error instanceof ConflictError && error.code === 'payment_already_settled')) throw error;
    log('void after settlement refused (payment_already_settled): refunding instead');
  }

  const first = await client.refunds.create(paid.orderId, paid.paymentId, {
    amount_cents: 2_500,
    reason: 'customer_request',
  });
  const firstDone = await client.awaitRefundResult(paid.orderId, paid.paymentId, first.refund_id, {
    intervalMs: pollIntervalMs,
  });
  log(`refund ${first.refund_id} of ${dollars(first.amount_cents)}: ${firstDone.status}`);
  log(`payment after a partial refund: ${(await client.payments.get(paid.orderId, paid.paymentId)).status}`);

  const rest = await client.refunds.create(paid.orderId, paid.paymentId, {
    amount_cents: 3_500,
    reason: 'customer_request',
  });
  const restDone = await client.awaitRefundResult(paid.orderId, paid.paymentId, rest.refund_id, {
    intervalMs: pollIntervalMs,
  });
  log(`refund ${rest.refund_id} of ${dollars(rest.amount_cents)}: ${restDone.status}`);
  const final = await client.payments.get(paid.orderId, paid.paymentId);
  log(`payment after refunding everything: ${final.status}`);
  return { voided, refunds: [firstDone, restDone], payment: final };
}

runIfMain(import.meta.url, refundAndVoid);
