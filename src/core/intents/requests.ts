// The requests of the intent layer, as specs the resources send too: a payment's creation (what
// `payments.create` sends, and `client.charge` under its one key), and the reads reconciliation
// makes (an order with its payments, a payment, a refund: what `orders.get`, `payments.get` and
// `refunds.get` send).

import { formatCents } from '../../internal/format.js';
import { path } from '../../internal/path.js';
import { Order } from '../../schemas/compiled/orders.js';
import { Payment } from '../../schemas/compiled/payments.js';
import { Refund } from '../../schemas/compiled/refunds.js';
import type * as P from '../../schemas/payments.js';
import type { APIPromise } from '../call/api-promise.js';
import type { IntentSpec, RequestOptions, RequestSpec } from '../types.js';
import type { IntentIO } from './reconcile.js';

/**
 * The request of a payment creation (spec 4.3), exactly once per idempotency key: what
 * `payments.create` sends, and `client.charge` under its one key.
 */
export function paymentCreation(
  orderId: string,
  body: P.PaymentCreateParams & { amount_cents: number },
  options: RequestOptions | undefined,
): RequestSpec<typeof Payment> & { intent: IntentSpec } {
  return {
    method: 'POST',
    scope: 'svc/payments:create',
    path: path`/pos/v1/orders/${orderId}/payments`,
    route: '/pos/v1/orders/{order_id}/payments',
    body,
    retry: 'unsafe',
    intent: { kind: 'payment', orderId },
    reconcile: {
      subject: 'the order',
      read: `client.orders.get('${orderId}')`,
      check: `look for a payment of ${formatCents(body.amount_cents)} before creating another`,
    },
    response: Payment,
    options,
  };
}

/** The read of an order with its payments (spec 4.2). */
export function orderRead(orderId: string, options: RequestOptions | undefined): RequestSpec<typeof Order> {
  return {
    method: 'GET',
    scope: 'svc/payments:read',
    path: path`/pos/v1/orders/${orderId}`,
    route: '/pos/v1/orders/{order_id}',
    retry: 'safe',
    response: Order,
    options,
  };
}

/** The read of one payment (spec 4.4). */
export function paymentRead(
  orderId: string,
  paymentId: string,
  options: RequestOptions | undefined,
): RequestSpec<typeof Payment> {
  return {
    method: 'GET',
    scope: 'svc/payments:read',
    path: path`/pos/v1/orders/${orderId}/payments/${paymentId}`,
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}',
    retry: 'safe',
    response: Payment,
    options,
  };
}

/** The read of one refund (spec 4.7). */
export function refundRead(
  orderId: string,
  paymentId: string,
  refundId: string,
  options: RequestOptions | undefined,
): RequestSpec<typeof Refund> {
  return {
    method: 'GET',
    scope: 'svc/payments:read',
    path: path`/pos/v1/orders/${orderId}/payments/${paymentId}/refunds/${refundId}`,
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds/{refund_id}',
    retry: 'safe',
    response: Refund,
    options,
  };
}

/** Sends one spec through the core (its `call`). */
export type Send = <S extends RequestSpec['response']>(spec: RequestSpec<S>) => APIPromise<S['_output']>;

/** A read's options: the caller's signal, and the call's deadline (`readBy`, epoch ms) when it has one. */
function readOptions(signal: AbortSignal | undefined, readBy: number | undefined): RequestOptions {
  return { signal, deadlineMs: readBy === undefined ? undefined : Math.max(1, readBy - Date.now()) };
}

/** Reconciliation's reads over the core's `send`. */
export function intentReads(send: Send): Pick<IntentIO, 'readOrder' | 'readPayment' | 'readRefund'> {
  return {
    readOrder: async (orderId, signal, readBy) => {
      const before = Date.now();
      const { data, headers } = await send(orderRead(orderId, readOptions(signal, readBy))).withResponse();
      return { payments: data.payments, date: headers.date, before, after: Date.now() };
    },
    readPayment: (orderId, paymentId, signal, readBy) =>
      send(paymentRead(orderId, paymentId, readOptions(signal, readBy))),
    readRefund: (orderId, paymentId, refundId, signal, readBy) =>
      send(refundRead(orderId, paymentId, refundId, readOptions(signal, readBy))),
  };
}
