/**
 * The call kinds the fault suite and the soak test drive, each as one function over the public
 * client, and the expected side effect of each.
 */
import { randomUUID } from 'node:crypto';
import type { PaymentsClient, RequestOptions } from '../../src/index.js';

export const CALL_KINDS = [
  'orders.get',
  'orders.create',
  'payments.create',
  'refunds.create',
  'payments.void',
] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** The counter of {@link SideEffects} a successful call of this kind raises by one (none for reads). */
export const EFFECT_OF: Record<CallKind, 'orders' | 'payments' | 'refunds' | 'voids' | undefined> = {
  'orders.get': undefined,
  'orders.create': 'orders',
  'payments.create': 'payments',
  'refunds.create': 'refunds',
  'payments.void': 'voids',
};

const LOCATION_ID = '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11';

/** Makes one call of `kind` (on fresh ids) and returns the id field of its result. */
export async function invoke(client: PaymentsClient, kind: CallKind, opts: RequestOptions): Promise<string> {
  const orderId = randomUUID();
  const paymentId = randomUUID();
  switch (kind) {
    case 'orders.get':
      return (await client.orders.get(orderId, opts)).order_id;
    case 'orders.create':
      return (await client.orders.create({ location_id: LOCATION_ID, total_cents: 12_500 }, opts)).order_id;
    case 'payments.create':
      return (await client.payments.create(orderId, { method: 'card', amount_cents: 12_500 }, opts))
        .payment_id;
    case 'refunds.create':
      return (await client.refunds.create(orderId, paymentId, { amount_cents: 2_500, reason: 'other' }, opts))
        .refund_id;
    case 'payments.void':
      return (await client.payments.void(orderId, paymentId, opts)).payment_id;
  }
}

/** Headers that ask the fault server for `fault` on the first `attempts` attempts of call `callId`. */
export function faultHeaders(
  callId: string,
  fault: string | undefined,
  attempts = 1,
): Record<string, string> {
  const headers: Record<string, string> = { 'x-call-id': callId };
  if (fault) {
    headers['x-fault'] = fault;
    headers['x-fault-attempts'] = String(attempts);
  }
  return headers;
}
