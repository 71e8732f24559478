/**
 * The call kinds the fault suite and the soak test drive, each as one function over the public
 * client, what each needs on the mock beforehand, and the side effect each has.
 */
import type { PaymentsClient, RequestOptions } from '../../src/index.js';

export const CALL_KINDS = [
  'orders.get',
  'orders.create',
  'payments.create',
  'refunds.create',
  'payments.void',
] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** The counter of the side effects a successful call of this kind raises by one (none for reads). */
export const EFFECT_OF: Record<CallKind, 'orders' | 'payments' | 'refunds' | 'voids' | undefined> = {
  'orders.get': undefined,
  'orders.create': 'orders',
  'payments.create': 'payments',
  'refunds.create': 'refunds',
  'payments.void': 'voids',
};

/** What a call needs to exist on the mock before it runs (see `FaultHarness.prepare`). */
export const NEEDS: Record<CallKind, 'nothing' | 'order' | 'pending payment' | 'settled payment'> = {
  'orders.get': 'order',
  'orders.create': 'nothing',
  'payments.create': 'order',
  'refunds.create': 'settled payment',
  'payments.void': 'pending payment',
};

/** The ids a call works on; an order a call creates carries its call id as `description`. */
export interface Prepared {
  callId: string;
  locationId: string;
  orderId: string;
  paymentId: string;
}

export const TOTAL_CENTS = 12_500;

/** Makes one call of `kind` on the prepared ids and returns the id field of its result. */
export async function invoke(
  client: PaymentsClient,
  kind: CallKind,
  ids: Prepared,
  opts: RequestOptions,
): Promise<string> {
  const { orderId, paymentId } = ids;
  switch (kind) {
    case 'orders.get':
      return (await client.orders.get(orderId, opts)).order_id;
    case 'orders.create': {
      const body = { location_id: ids.locationId, total_cents: TOTAL_CENTS, description: ids.callId };
      return (await client.orders.create(body, opts)).order_id;
    }
    case 'payments.create':
      return (await client.payments.create(orderId, { method: 'card', amount_cents: TOTAL_CENTS }, opts))
        .payment_id;
    case 'refunds.create':
      return (await client.refunds.create(orderId, paymentId, { amount_cents: 2_500, reason: 'other' }, opts))
        .refund_id;
    case 'payments.void':
      return (await client.payments.void(orderId, paymentId, opts)).payment_id;
  }
}

/**
 * Headers that mark every attempt of call `callId`. The mock's faults match `x-call-id`; the
 * `refused` fault is played by the client's dispatcher, which reads `x-fault` and `x-fault-attempts`.
 */
export function faultHeaders(
  callId: string,
  fault: string | undefined,
  attempts = 1,
): Record<string, string> {
  const headers: Record<string, string> = { 'x-call-id': callId };
  if (fault === 'refused') {
    headers['x-fault'] = fault;
    headers['x-fault-attempts'] = String(attempts);
  }
  return headers;
}
