// The commands a fleet test sends to its worker processes, and their replies.
import {
  CallError,
  type PaymentsClientOptions,
  type RateLimitOptions,
  type RecoveredIntent,
} from '../../src/index.js';
import type { RedisStoresOptions } from '../../src/stores/index.js';

export type StoreKind = 'redis' | 'postgres' | 'memory' | 'none';

interface StoreTarget {
  /** A server's `redis://` URL, or a cluster's `redis-cluster://host:port,...` (cluster.ts). */
  redisUrl?: string;
  /** `redisStores(client, redisOptions)`: `durability`, say. */
  redisOptions?: RedisStoresOptions;
  pgUrl?: string;
  flavour?: 'node-redis' | 'ioredis';
}

/** One charge a worker makes: `payments.create(orderId, { amount_cents }, { idempotencyKey: key })`. */
export interface Charge {
  orderId: string;
  key: string;
  amountCents: number;
}

/** How one charge ended in a worker: its payment, or the error it threw. */
export interface ChargeOutcome {
  key: string;
  orderId: string;
  paymentId?: string;
  error?: { name: string; message: string; outcomeUnknown: boolean; candidates?: string[] };
  /** When the worker called `payments.create` (epoch ms; the processes share this machine's clock). */
  startedAt: number;
  /** How long the call took (ms). */
  tookMs: number;
}

/**
 * How one charge ends in a worker: `pay` gives its order and payment; a thrown error is kept (its
 * name, message, whether its outcome is unknown and its candidates), the order then `orderId`.
 */
export async function chargeOutcome(
  key: string,
  orderId: string,
  pay: () => Promise<{ orderId: string; paymentId: string }>,
): Promise<ChargeOutcome> {
  const startedAt = Date.now();
  try {
    const paid = await pay();
    return {
      key,
      orderId: paid.orderId,
      paymentId: paid.paymentId,
      startedAt,
      tookMs: Date.now() - startedAt,
    };
  } catch (error) {
    const e = error as Error;
    const call = error instanceof CallError ? error : undefined;
    return {
      key,
      orderId,
      startedAt,
      tookMs: Date.now() - startedAt,
      error: {
        name: e.name,
        message: e.message,
        outcomeUnknown: call?.outcomeUnknown ?? false,
        ...(call?.candidates ? { candidates: call.candidates } : {}),
      },
    };
  }
}

/** One cart a worker checks out: `client.charge` of its order under `key` (its description: the key). */
export interface Cart {
  key: string;
  locationId: string;
  totalCents: number;
  /** The payment's amount: below the total, so that the mock would take a second charge (and show it). */
  amountCents: number;
}

/**
 * How a worker checks its carts out: `charge` (client.charge under the cart's key), or the naive
 * pattern a control runs: `orders.create` without a key, then `payments.create` keyed by the order.
 */
export type CheckoutWay = 'charge' | 'naive';

export type Command =
  | ({
      op: 'client';
      name: string;
      store: StoreKind;
      /** The client's `intentStore`: the engine's, one per process (`memory`), or the default (`none`). */
      intents?: StoreKind;
      options: PaymentsClientOptions;
      rateLimit?: Omit<RateLimitOptions, 'store'>;
      /**
       * The process kills itself (SIGKILL) when the client first begins a payment's intent: after
       * its order was created and answered, before anything of the payment is stored or sent.
       */
      dieAtPayment?: boolean;
    } & StoreTarget)
  | { op: 'get'; name: string; orderId: string; n: number }
  /** Makes the charges, `concurrency` at a time, and tallies the client's `reconcile` events meanwhile. */
  | { op: 'charge'; name: string; charges: Charge[]; concurrency: number }
  /** Checks the carts out, `concurrency` at a time (outcomes in `charged`, `orderId` '' when unknown). */
  | { op: 'checkout'; name: string; carts: Cart[]; concurrency: number; way?: CheckoutWay }
  | { op: 'recover'; name: string; olderThanMs?: number }
  | ({
      op: 'dedupe';
      store: StoreKind;
      secret: string;
      deliveries: { body: string; signature: string }[];
    } & StoreTarget)
  | { op: 'processOnce'; pgUrl: string; eventId: string; fail?: 'throw' | 'crash' }
  | { op: 'close' };

export interface Reply {
  ok: boolean;
  error?: string;
  succeeded?: number;
  failures?: string[];
  minted?: number;
  warnings?: string[];
  handled?: string[];
  outcome?: unknown;
  charged?: ChargeOutcome[];
  /** The `reconcile` events of a `charge` command, by outcome. */
  reconciled?: Record<string, number>;
  recovered?: RecoveredIntent[];
}

/** The replies' reconciliation outcomes added up (`{ landed: 49, unknown: 3 }`). */
export function tallyReconciled(replies: Reply[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies)
    for (const [k, n] of Object.entries(r.reconciled ?? {})) out[k] = (out[k] ?? 0) + n;
  return out;
}
