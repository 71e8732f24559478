// Reconciliation's reads (an order with its payments, a payment, a refund): the requests that
// `orders.get`, `payments.get` and `refunds.get` send (src/resources/endpoints.ts), sent down
// through the core.

import type { APIPromise } from '../core/call/api-promise.js';
import type { RequestOptions, RequestSpec } from '../core/types.js';
import { orderRead, paymentRead, refundRead } from '../resources/endpoints.js';
import type { IntentIO } from './reconcile.js';

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
