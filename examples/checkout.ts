// A retried checkout charges once: a partner's `POST /checkout` handler, keyed by the partner's own
// cart id, run three times for one cart (a browser's retry, a proxy's, a queue's redelivery).
// Run: npx tsx examples/checkout.ts
import type { PaymentsClient } from 'partner-payments';
import { dollars, type ExampleContext, runIfMain } from './support.js';

/** What the partner's shop knows of a cart when the shopper presses "Pay". */
interface Cart {
  id: string;
  totalCents: number;
}

/**
 * The handler: the whole unit of work (create the order, pay it) under ONE key derived from the
 * cart, never from the attempt. Rerun it as often as the request is retried: one order, one payment.
 */
export function checkoutHandler(client: PaymentsClient, locationId: string) {
  return async (cart: Cart) => {
    const { order, payment } = await client.charge({
      idempotencyKey: `checkout-${cart.id}`,
      order: { location_id: locationId, total_cents: cart.totalCents, external_reference: cart.id },
    });
    return { orderId: order.order_id, paymentId: payment.payment_id, status: payment.status };
  };
}

export async function checkout({ client, locationId, log }: ExampleContext) {
  const handle = checkoutHandler(client, locationId);
  const cart: Cart = { id: `cart-${Date.now()}`, totalCents: 3_150 };
  const answers = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const answer = await handle(cart);
    log(
      `attempt ${attempt}: order ${answer.orderId}, payment ${answer.paymentId} (${dollars(cart.totalCents)})`,
    );
    answers.push(answer);
  }
  const order = await client.orders.get(answers[0]!.orderId);
  log(`the order lists ${order.payments.length} payment(s)`);
  return { answers, order };
}

runIfMain(import.meta.url, checkout);
