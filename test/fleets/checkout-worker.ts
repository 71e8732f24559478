// The worker's side of the checkout fleet tests (issue 40): carts checked out with `client.charge`
// (or, in a control, the naive order-then-payment a partner might write), and the trap that kills
// the process between a charge's order and its payment.
import type { IntentStore, PaymentsClient } from '../../src/index.js';
import { type Cart, type ChargeOutcome, type CheckoutWay, chargeOutcome } from './protocol.js';

/**
 * `store`, but the process dies (SIGKILL: nothing runs after it) the first time a call begins an
 * intent. In `charge` that is after `orders.create` answered and before the payment is stored or
 * sent: the one point no server-side door can reach.
 */
export function dieAtFirstBegin(store: IntentStore): IntentStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'begin') {
        return () => {
          process.kill(process.pid, 'SIGKILL');
          return new Promise(() => {}); // the signal lands before this could settle
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** One cart's checkout: its order and payment. */
async function checkoutOne(client: PaymentsClient, cart: Cart, way: CheckoutWay) {
  const order = { location_id: cart.locationId, total_cents: cart.totalCents, description: cart.key };
  const payment = { method: 'card', amount_cents: cart.amountCents } as const;
  if (way === 'charge') return client.charge({ idempotencyKey: cart.key, order, payment });
  // The pattern issue 40 starts from: the order has no key, the payment is keyed by the order, so a
  // rerun makes a new order under a new key and charges the cart again.
  const created = await client.orders.create(order);
  const paid = await client.payments.create(created.order_id, payment, {
    idempotencyKey: `${cart.key}:${created.order_id}`,
  });
  return { order: created, payment: paid };
}

/** Checks the carts out, `concurrency` at a time; how each ended. */
export async function checkout(
  client: PaymentsClient,
  carts: Cart[],
  concurrency: number,
  way: CheckoutWay = 'charge',
): Promise<ChargeOutcome[]> {
  const outcomes: ChargeOutcome[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < carts.length; i = next++) {
      const cart = carts[i]!;
      outcomes.push(
        await chargeOutcome(cart.key, '', async () => {
          const { order, payment } = await checkoutOne(client, cart, way);
          return { orderId: order.order_id, paymentId: payment.payment_id };
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return outcomes;
}
