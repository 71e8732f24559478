// What the intent layer reads to reconcile a lost answer (an order with its payments, a payment, a
// refund): the requests that `orders.get`, `payments.get` and `refunds.get` send, over the core's
// `send`. The client hands them to the intent runner, which sits below the resources.

import type { APIPromise } from '../core/call/api-promise.js';
import type { RequestOptions, RequestSpec } from '../core/types.js';
import type { IntentIO } from '../intents/reconcile.js';
import type { WaitClock } from '../internal/wait-clock.js';
import { orderRead, paymentRead, refundRead } from './endpoints.js';

/** Sends one spec through the core (its `call`). */
export type Send = <S extends RequestSpec['response']>(spec: RequestSpec<S>) => APIPromise<S['_output']>;

/** A read's options: the caller's signal, and the call's deadline (`readBy`, epoch ms) when it has one. */
function readOptions(signal: AbortSignal | undefined, readBy: number | undefined): RequestOptions {
  return { signal, deadlineMs: readBy === undefined ? undefined : Math.max(1, readBy - Date.now()) };
}

/** Reconciliation's reads over the core's `send`; an order read's times are on `clock` (IntentIO.clock). */
export function intentReads(
  send: Send,
  clock: WaitClock,
): Pick<IntentIO, 'readOrder' | 'readPayment' | 'readRefund'> {
  return {
    readOrder: async (orderId, signal, readBy) => {
      const before = clock.now();
      const { data, headers } = await send(orderRead(orderId, readOptions(signal, readBy))).withResponse();
      return { payments: data.payments, date: headers.date, before, after: clock.now() };
    },
    readPayment: (orderId, paymentId, signal, readBy) =>
      send(paymentRead(orderId, paymentId, readOptions(signal, readBy))),
    readRefund: (orderId, paymentId, refundId, signal, readBy) =>
      send(refundRead(orderId, paymentId, refundId, readOptions(signal, readBy))),
  };
}
