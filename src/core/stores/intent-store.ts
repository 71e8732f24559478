// The contract of the `intentStore` client option: what the SDK remembers per idempotency key of a
// payment or refund (api.md 17). MemoryIntentStore, the default, is in memory-intent-store.ts.

/**
 * What the SDK knows of one intended payment or refund, keyed by its idempotency key. Holds no
 * secret: ids, amounts, times, a digest of the params and the resource the key produced (the
 * payment or refund as the create call returns it).
 *
 * @example
 * const record: IntentRecord | undefined = await intentStore.get('charge-order-1234');
 * if (record?.state === 'landed') console.log(record.resultId);
 */
export interface IntentRecord {
  /** The idempotency key. */
  key: string;
  kind: 'payment' | 'refund';
  /** A digest of the order, the payment (refunds) and the params: the same key with others conflicts. */
  fingerprint: string;
  orderId: string;
  /** The refunded payment (refunds only). */
  paymentId?: string | undefined;
  amountCents: number;
  /** The payment method (payments only). */
  method?: string | undefined;
  /**
   * `open`: not finished (never sent, or in flight, or its holder died); `landed`: the resource
   * exists (`resultId`); `not_landed`: provably never created, the key may send again; `unknown`:
   * sent, and what happened cannot be told yet.
   */
  state: 'open' | 'landed' | 'not_landed' | 'unknown';
  /**
   * When the current series of sends began (epoch ms); unset until the first send. Like
   * `lastSentAt`, on real time, but for a client made from a manual-clock mock's
   * `mock.clientOptions()`: real time plus what the test advanced the mock's clock by (docs/testing.md).
   */
  firstSentAt?: number | undefined;
  /** When the last send began (epoch ms). */
  lastSentAt?: number | undefined;
  /** How many times the request went out under this key. */
  sends: number;
  /** The payment or refund id, once known. */
  resultId?: string | undefined;
  /** The resource the key produced, as the create call returns it. */
  result?: Record<string, unknown> | undefined;
  /** Ids that might be this intent when it ended `unknown`. */
  candidates?: string[] | undefined;
  createdAt: number;
  updatedAt: number;
}

/**
 * `record` with `changes`, as a new object. Object.assign, not a spread with overrides: on V8 the
 * latter is an order of magnitude slower (about 5 µs against 0.4 µs on Node 20 for a record), on every call.
 */
/** @internal */
export function revise(record: IntentRecord, changes: Partial<IntentRecord>): IntentRecord {
  return Object.assign({}, record, changes);
}

/**
 * What {@link IntentStore.begin} found: the caller holds the key's lease (`acquired`), or the key
 * produced its resource already (`done`), or another call holds the lease until `until` (`busy`), or
 * the key was used with other params (`conflict`).
 *
 * @example
 * const begun: IntentBegin = await store.begin(draft, owner, 60_000);
 */
export type IntentBegin =
  | { status: 'acquired'; record: IntentRecord }
  | { status: 'done'; record: IntentRecord }
  | { status: 'busy'; until: number }
  | { status: 'conflict'; record: IntentRecord };

/**
 * A refund the webhook handler saw (`payment.refunded` and the other refund events): the service
 * lists no refunds of a payment, so this is how a lost refund answer can be settled.
 *
 * @example
 * await intentStore.noteRefund({ refundId, paymentId, orderId, amountCents: 500, occurredAt: Date.now() });
 */
export interface RefundSighting {
  refundId: string;
  paymentId: string;
  orderId: string;
  amountCents: number;
  /** The event's signed `occurred_at`, epoch ms. */
  occurredAt: number;
}

/**
 * An order made under an idempotency key (`orders.create` with a key, `client.charge`), as
 * {@link IntentStore.noteOrder} records it: catching up on lost webhooks reads it back (docs/webhooks.md).
 *
 * @example
 * await intentStore.noteOrder?.({ orderId: order.order_id, createdAt: Date.parse(order.created_at) });
 */
export interface OrderNote {
  /** The order's id. */
  orderId: string;
  /** When the order was made, epoch ms. */
  createdAt: number;
}

/**
 * One resource the SDK made, as {@link IntentStore.made} lists it: an order noted by
 * {@link IntentStore.noteOrder}, or a payment or refund intent that landed (`paymentId`, and
 * `refundId` for a refund, are the ids the service gave).
 *
 * @example
 * for (const m of await intentStore.made!({ from: Date.now() - 86_400_000, to: Date.now() }))
 *   console.log(m.kind, m.orderId, m.paymentId, m.refundId);
 */
export interface MadeResource {
  /** What was made. */
  kind: 'order' | 'payment' | 'refund';
  /** The order (of the payment, or of the refunded payment). */
  orderId: string;
  /** The payment (payments), or the refunded payment (refunds). */
  paymentId?: string | undefined;
  /** The refund (refunds only). */
  refundId?: string | undefined;
  /** When it was made (an intent: when its record was created), epoch ms. */
  createdAt: number;
}

/**
 * Where the SDK keeps its payment and refund intents (client option `intentStore`). Every method is
 * atomic for one key; a fleet shares one store (Redis or Postgres from `partner-payments/stores`),
 * so that a key used by two instances, or rerun after a crash, still produces one resource.
 *
 * @example
 * import { redisStores } from 'partner-payments/stores';
 * const client = new PaymentsClient({ intentStore: redisStores(redis).intentStore });
 */
export interface IntentStore {
  /**
   * True when what it holds survives a restart of the process (Redis, Postgres, files on disk);
   * false, or absent, when it does not (the default in-memory store): after a restart the SDK can
   * then learn a key's outcome only from the service's own records.
   */
  readonly durable?: boolean;
  /**
   * Creates the record from `draft` when the key is new, and gives `owner` the key's lease for
   * `leaseMs`: unless the key's fingerprint differs, its resource landed, or another live owner holds it.
   */
  begin(draft: IntentRecord, owner: string, leaseMs: number): Promise<IntentBegin>;
  /**
   * Writes `record` when `owner` still holds the key's lease, and releases it when `release` is set.
   * Resolves `'lost'` when the lease passed to another owner, `'taken'` when `record.resultId` is
   * already another key's result on the same order (nothing is written then), else `'ok'`.
   */
  put(record: IntentRecord, owner: string, release: boolean): Promise<'ok' | 'lost' | 'taken'>;
  /**
   * Extends the lease `owner` holds on the intent's key to `leaseMs` from now; false (nothing
   * written) when it holds it no longer. A live call renews a short lease while it runs, so that a
   * process that dies holding keys frees them in seconds (docs/idempotency.md); a store without it gives each
   * call a lease of its whole deadline.
   */
  renew?(intent: { key: string; orderId: string }, owner: string, leaseMs: number): Promise<boolean>;
  /** The record of a key. */
  get(key: string): Promise<IntentRecord | undefined>;
  /** Every record on an order (the other keys' results are not this key's candidates). */
  forOrder(orderId: string): Promise<IntentRecord[]>;
  /** Records `open` or `unknown`, not leased, last written more than `olderThanMs` ago. */
  unfinished(olderThanMs: number): Promise<IntentRecord[]>;
  /** Records a refund seen in a webhook event. */
  noteRefund(sighting: RefundSighting): Promise<void>;
  /** The refunds seen for a payment. */
  refundsOf(paymentId: string): Promise<RefundSighting[]>;
  /**
   * Records an order made under an idempotency key (`orders.create` with a key, `client.charge`),
   * kept at least 24 hours; the same order again changes nothing. Optional: a store without it
   * leaves those orders out of `handler.catchUp()` (their payments made by the SDK are still in).
   */
  noteOrder?(order: OrderNote): Promise<void>;
  /**
   * What was made between `from` and `to` (epoch ms, both included): the orders noted by
   * {@link noteOrder} and the payments and refunds whose intent landed, each with its creation
   * time, in no particular order. Kept at least 24 hours. Optional: `handler.catchUp()` needs it
   * (docs/webhooks.md) and says so when the client's store lacks it.
   */
  made?(window: { from: number; to: number }): Promise<MadeResource[]>;
}

/**
 * The resource a landed intent made, as {@link IntentStore.made} lists it; undefined for an intent
 * that has not landed (or landed without an id).
 * @internal
 */
export function madeOf(record: IntentRecord): MadeResource | undefined {
  if (record.state !== 'landed' || record.resultId === undefined) return undefined;
  return record.kind === 'payment'
    ? { kind: 'payment', orderId: record.orderId, paymentId: record.resultId, createdAt: record.createdAt }
    : {
        kind: 'refund',
        orderId: record.orderId,
        paymentId: record.paymentId,
        refundId: record.resultId,
        createdAt: record.createdAt,
      };
}
