/**
 * The mixed calls of a chaos run: which call comes at index i is a function of (seed, i) alone, so
 * a run needs no list of its calls, and each acts on its own fresh resources (made beforehand by the
 * server process) so that a call's side effects can be told apart afterwards. Payments and refunds
 * are made under an idempotency key of their own (`key-<call id>`; keyed payments share orders).
 */
import type { PaymentsClient, RequestOptions } from '../../src/index.js';
import { hashSeed } from './faults.js';
import { type Fixture, KINDS, type Kind } from './types.js';

export interface PlannedCall {
  callId: string;
  kind: Kind;
  /** Which client: the default undici transport or a caller `fetch`. */
  transport: 'undici' | 'fetch';
  /** Set on some calls: the whole call must end within it. */
  deadlineMs: number | undefined;
}

/** The mix: payments weigh most, for 1,000 keyed payment calls in 3,000 (issue 23's 1 in 1,000). */
export const WEIGHTS: Record<Kind, number> = {
  'orders.create': 18,
  'orders.create.checkout': 4,
  'payments.create': 56,
  'refunds.create': 12,
  'payments.void': 10,
  'orders.get': 16,
  'payments.get': 10,
  'locations.list': 14,
  charge: 8,
};
/** How a run draws its calls. */
export interface Plan {
  /** The `deadlineMs` of about one call in five. */
  deadlineMs: number;
  /** The same for keyed payments and refunds: room for a timeout, `settleMs` and a second send. */
  keyedDeadlineMs: number;
  /** The mix. @default {@link WEIGHTS} */
  weights?: Partial<Record<Kind, number>> | undefined;
}

/** A keyed call's idempotency key. */
export const keyOf = (callId: string) => `key-${callId}`;

/** Whether a call is made under an idempotency key. */
export const keyed = (kind: Kind) => kind === 'payments.create' || kind === 'refunds.create';

/** Call `i` of the run seeded `seed` (`prefix` tells a warm-up's calls from the measured ones). */
export function planned(seed: number, prefix: string, i: number, plan: Plan): PlannedCall {
  const weights = plan.weights ?? WEIGHTS;
  const random = hashSeed(seed, `plan:${prefix}:${i}`);
  let at = random() * KINDS.reduce((sum, k) => sum + (weights[k] ?? 0), 0);
  let kind: Kind = 'orders.get';
  for (const k of KINDS) {
    at -= weights[k] ?? 0;
    if (at < 0) {
      kind = k;
      break;
    }
  }
  const withDeadline = random() < 0.2 && kind !== 'locations.list';
  return {
    callId: `${prefix}-${seed}-${i}`,
    kind,
    transport: i % 2 === 0 ? 'undici' : 'fetch',
    // A checkout's deadline (each run's) is the short one, below settleMs: a lost payment answer in
    // it ends the run outcomeUnknown at the deadline (api.md 19), and the rerun settles the key.
    deadlineMs: withDeadline ? (keyed(kind) ? plan.keyedDeadlineMs : plan.deadlineMs) : undefined,
  };
}

/**
 * Runs one planned call; resolves when it succeeded (with the payment's or refund's id for a keyed
 * call), rejects with what the SDK threw.
 */
export async function invoke(
  client: PaymentsClient,
  call: PlannedCall,
  fixture: Fixture | undefined,
  locationId: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const opts: RequestOptions = {
    headers: { 'x-chaos-call': call.callId },
    timeoutMs,
    ...(call.deadlineMs === undefined ? {} : { deadlineMs: call.deadlineMs }),
  };
  const f = fixture ?? { orderId: '', paymentId: '' };
  const keyedOpts = { ...opts, idempotencyKey: keyOf(call.callId) };
  switch (call.kind) {
    case 'orders.create':
      await client.orders.create(
        { location_id: locationId, total_cents: 2_500, external_reference: call.callId },
        opts,
      );
      return;
    case 'orders.create.checkout':
      await client.orders.create(
        {
          location_id: locationId,
          total_cents: 2_500,
          return_url: 'https://shop.example.com/return',
          cancel_url: 'https://shop.example.com/cancel',
          metadata: { call: call.callId, tags: ['chaos', 1, true, null] },
        },
        opts,
      );
      return;
    case 'payments.create': {
      const params = { method: 'card', amount_cents: f.amountCents ?? 1_000 } as const;
      return (await client.payments.create(f.orderId, params, keyedOpts)).payment_id;
    }
    case 'refunds.create': {
      const params = { amount_cents: 1_000, reason: 'customer_request' } as const;
      return (await client.refunds.create(f.orderId, f.paymentId, params, keyedOpts)).refund_id;
    }
    case 'payments.void':
      await client.payments.void(f.orderId, f.paymentId, opts);
      return;
    case 'orders.get':
      await client.orders.get(f.orderId, opts);
      return;
    case 'payments.get':
      await client.payments.get(f.orderId, f.paymentId, opts);
      return;
    case 'locations.list':
      for await (const _location of client.locations.list({ limit: 10 }, opts));
      return;
    case 'charge':
      throw new Error('checkouts run through checkoutWithReruns (checkout.ts)');
  }
}
