// The one adapter of the mcp room to `client.charge` (api.md 19): an order created and paid under
// one key. Until the client has `charge`, the same two steps are made here: the order under the key
// (as its UUID v5 in ORDER_KEY_NAMESPACE when it is not a UUID, as `orders.create` will send it),
// then the payment under the same key through the intent store (api.md 17).
import { createHash } from 'node:crypto';
import type { OrderCreated, OrderCreateParams, Payment, PaymentsClient } from '../../index.js';

/** What `client.charge` takes (the subset the tool uses). */
export interface ChargeParams {
  idempotencyKey: string;
  order: OrderCreateParams;
  payment?: { method: 'card'; amount_cents?: number };
}

/** Creates the order and pays it, each at most once for `idempotencyKey`. */
export async function chargeOrder(
  client: PaymentsClient,
  params: ChargeParams,
  signal: AbortSignal | undefined,
): Promise<{ order: OrderCreated; payment: Payment }> {
  const order = await client.orders.create(params.order, {
    idempotencyKey: orderKey(params.idempotencyKey),
    signal,
  });
  const amount = params.payment?.amount_cents ?? params.order.total_cents;
  const payment = await client.payments.create(
    order.order_id,
    { method: 'card', amount_cents: amount },
    { idempotencyKey: params.idempotencyKey, signal },
  );
  return { order, payment };
}

/** api.md 19's order key: a UUID unchanged, any other string as its UUID v5 (RFC 9562). */
const ORDER_KEY_NAMESPACE = '28fe90d0-4725-4dbb-9216-63002d29ecdf';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function orderKey(key: string): string {
  if (UUID.test(key)) return key;
  const ns = Buffer.from(ORDER_KEY_NAMESPACE.replaceAll('-', ''), 'hex');
  const hash = createHash('sha1').update(ns).update(key, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
