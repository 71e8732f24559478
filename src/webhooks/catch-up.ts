// `handler.catchUp(client)` (api.md 23): one pass over the orders, payments and refunds the client's
// intent store says were made, reading each not yet final from the service and running the handler's
// callback with the event a lost webhook would have carried. The client is passed in and typed by
// what the pass uses: this module loads no HTTP client.
import { PaymentsError } from '../core/errors/api-errors.js';
import type { IntentStore, MadeResource } from '../core/stores/intent-store.js';
import type { KnownEventKind } from '../schemas/event-envelope.js';
import type { WebhookEvent } from '../schemas/events.js';
import {
  CATCH_UP_EVENT_PREFIX,
  finalKey,
  holds,
  mark,
  runTransition,
  type TransitionStore,
} from './transitions.js';

/**
 * What `handler.catchUp` takes of a `PaymentsClient`: its intent store (`made`), and its reads of an
 * order and of a refund (through the client's own methods: its rate limiter, retries, deadlines).
 * A `PaymentsClient` is one; the webhooks entry does not import the client.
 *
 * @example
 * const client: CatchUpClient = new PaymentsClient({ intentStore });
 */
export interface CatchUpClient {
  readonly intentStore: Pick<IntentStore, 'made'>;
  readonly orders: {
    /** Reads an order with its payments (`client.orders.get`). */
    get(orderId: string, opts?: { signal?: AbortSignal }): PromiseLike<CatchUpOrder>;
  };
  readonly refunds: {
    /** Reads one refund of a payment (`client.refunds.get`). */
    get(
      orderId: string,
      paymentId: string,
      refundId: string,
      opts?: { signal?: AbortSignal },
    ): PromiseLike<CatchUpRefund>;
  };
}

/** The fields of an order read (spec 4.2) that a catch-up uses. */
export interface CatchUpOrder {
  order_id: string;
  status: string;
  external_reference?: string | null | undefined;
  payments: ReadonlyArray<{ payment_id: string; status: string; amount_cents: number; method: string }>;
}

/** The fields of a refund read (spec 4.7) that a catch-up uses. */
export interface CatchUpRefund {
  refund_id: string;
  payment_id: string;
  order_id: string;
  status: string;
  amount_cents: number;
}

/**
 * Options of `handler.catchUp`.
 *
 * @example
 * await webhooks.catchUp(client, { sinceMs: 6 * 3_600_000, limit: 500, signal: AbortSignal.timeout(50_000) });
 */
export interface CatchUpOptions {
  /** How far back to look: resources made at most this long ago. @default 86400000 (24 hours) */
  sinceMs?: number;
  /**
   * Resources made less than this long ago are left to their webhook (and to the next pass).
   * @default 60000 (1 minute)
   */
  olderThanMs?: number;
  /** The most reads of the service in one pass; the rest waits for the next pass. @default no limit */
  limit?: number;
  /** Stops the pass (it rejects with the signal's reason); what ran stays recorded. */
  signal?: AbortSignal;
  /**
   * The `partner_id` of the events a catch-up makes. @default the `partner_id` of the last verified
   * webhook this handler received, else the nil UUID
   */
  partnerId?: string;
}

/**
 * What a pass did: `checked` payments and refunds read, `delivered` callbacks run, `pending` still
 * awaiting the processor (a later pass sees them), `failed` callbacks that threw (their transition
 * stays unapplied: the next pass or the webhook runs it), and those errors.
 *
 * @example
 * const { checked, delivered, pending, failed } = await webhooks.catchUp(client);
 */
export interface CatchUpResult {
  checked: number;
  delivered: number;
  pending: number;
  failed: number;
  /** What the failed callbacks threw, with the event each was given. */
  errors: Array<{ error: unknown; event: WebhookEvent }>;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** The kind of the event a payment's status would have fired (spec 3.1); null: none (declined, failed). */
function paymentKind(status: string): KnownEventKind | null | 'pending' {
  switch (status) {
    case 'pending':
      return 'pending';
    case 'approved':
    case 'settled':
    case 'refunded':
      return 'payment.approved';
    case 'voided':
      return 'payment.voided';
    case 'cancelled':
      return 'payment.cancelled';
    case 'expired':
      return 'payment.expired';
    default:
      return null;
  }
}

/** The kinds a refund's status would have fired (spec 3.3, 6.2); 'pending' while it has none. */
function refundKinds(status: string): KnownEventKind[] | 'pending' {
  if (status === 'approved') return ['payment.refunded', 'payment.reversal_settled'];
  if (status === 'failed') return ['payment.reversal_failed'];
  return 'pending';
}

/** Order statuses after which no payment is added (spec 3.2). */
const CLOSED_ORDERS = new Set(['paid', 'voided', 'refunded', 'cancelled']);

/** What the handler lends a pass. */
export interface CatchUpContext {
  transitions: TransitionStore;
  /** The callback of a kind (the `on` handler, else `onUnknown`), undefined when none. */
  handlerOf(kind: string): ((event: WebhookEvent) => unknown) | undefined;
  /** Records the refund of a refund event in the handler's `intentStore`, when it has one. */
  noteRefund(event: WebhookEvent): Promise<void> | undefined;
  partnerId(): string | undefined;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0) || Number.isNaN(value))
    throw new PaymentsError(`catchUp: ${name} must be a number of 0 or more.`);
  return value;
}

/** One catch-up pass (see `WebhookHandler.catchUp`). */
export async function catchUp(
  ctx: CatchUpContext,
  client: CatchUpClient,
  options: CatchUpOptions = {},
): Promise<CatchUpResult> {
  const store = client?.intentStore;
  if (!store || typeof store.made !== 'function')
    throw new PaymentsError(
      "catchUp needs the client's intent store to list what it made (IntentStore.made): the SDK's own stores (MemoryIntentStore, redisStores, postgresStores, fileStores) have it; add it to your own store.",
    );
  const sinceMs = positive('sinceMs', options.sinceMs, 24 * 3_600_000);
  const olderThanMs = positive('olderThanMs', options.olderThanMs, 60_000);
  const limit = positive('limit', options.limit, Number.POSITIVE_INFINITY);
  const { signal } = options;
  const partnerId = options.partnerId ?? ctx.partnerId() ?? NIL_UUID;
  const result: CatchUpResult = { checked: 0, delivered: 0, pending: 0, failed: 0, errors: [] };
  const t = ctx.transitions;
  const reads = { n: 0 };
  const stop = () => {
    signal?.throwIfAborted();
    return reads.n >= limit;
  };
  const readOpts = signal ? { signal } : undefined;

  signal?.throwIfAborted();
  const now = Date.now();
  const made = await store.made({ from: now - sinceMs, to: now - olderThanMs });

  // The unit of reading is the order: one read gives every payment on it (those of the hosted
  // checkout page too). An order is read when it was noted, or has a payment not yet final.
  const orders = new Map<string, { noted: boolean; payments: string[] }>();
  const refunds: MadeResource[] = [];
  for (const m of made) {
    if (m.kind === 'refund') {
      if (m.paymentId !== undefined && m.refundId !== undefined) refunds.push(m);
      continue;
    }
    let o = orders.get(m.orderId);
    if (!o) {
      o = { noted: false, payments: [] };
      orders.set(m.orderId, o);
    }
    if (m.kind === 'order') o.noted = true;
    else if (m.paymentId !== undefined) o.payments.push(m.paymentId);
  }
  const read = new Map<string, CatchUpOrder>();
  const readOrder = async (orderId: string) => {
    const known = read.get(orderId);
    if (known) return known;
    reads.n++;
    const order = await client.orders.get(orderId, readOpts);
    read.set(orderId, order);
    return order;
  };

  /** Runs one transition's callback, once; whether it is applied now. */
  const deliver = async (kind: KnownEventKind, resource: Record<string, unknown>, id: string) => {
    const handle = ctx.handlerOf(kind);
    if (!handle) return true; // nothing to run for this kind
    const event = {
      v: 1,
      event_id: `${CATCH_UP_EVENT_PREFIX}${kind}:${id}`,
      event_kind: kind,
      occurred_at: new Date().toISOString(),
      partner_id: partnerId,
      resource,
      catch_up: true,
    } as unknown as WebhookEvent;
    try {
      const outcome = await runTransition(t, `${kind}:${id}`, async () => {
        await ctx.noteRefund(event);
        await handle(event);
      });
      if (outcome === 'ran') result.delivered++;
      return outcome !== 'busy';
    } catch (error) {
      result.failed++;
      result.errors.push({ error, event });
      return false;
    }
  };

  for (const [orderId, o] of orders) {
    if (await holds(t, finalKey(orderId))) continue;
    if (!o.noted) {
      let open = false;
      for (const p of o.payments) if (!(await holds(t, finalKey(p)))) open = true;
      if (!open) continue;
    }
    if (stop()) break;
    const order = await readOrder(orderId);
    let allFinal = CLOSED_ORDERS.has(order.status);
    for (const p of order.payments) {
      if (await holds(t, finalKey(p.payment_id))) continue;
      result.checked++;
      const kind = paymentKind(p.status);
      if (kind === 'pending') {
        result.pending++;
        allFinal = false;
        continue;
      }
      const resource = {
        payment_id: p.payment_id,
        order_id: orderId,
        status: p.status,
        amount_cents: p.amount_cents,
        method: p.method,
        external_reference: order.external_reference ?? null,
      };
      const applied = kind === null || (await deliver(kind, resource, p.payment_id));
      if (applied) await mark(t, finalKey(p.payment_id));
      else allFinal = false;
    }
    if (allFinal && o.noted) await mark(t, finalKey(orderId));
  }

  for (const m of refunds) {
    const refundId = m.refundId as string;
    const paymentId = m.paymentId as string;
    if (await holds(t, finalKey(refundId))) continue;
    if (stop()) break;
    reads.n++;
    const refund = await client.refunds.get(m.orderId, paymentId, refundId, readOpts);
    result.checked++;
    const kinds = refundKinds(refund.status);
    if (kinds === 'pending') {
      result.pending++;
      continue;
    }
    const order = await readOrder(m.orderId);
    const payment = order.payments.find((p) => p.payment_id === paymentId);
    const resource = {
      payment_id: paymentId,
      order_id: m.orderId,
      status: payment?.status ?? 'settled',
      amount_cents: payment?.amount_cents ?? refund.amount_cents,
      method: payment?.method ?? 'card',
      external_reference: order.external_reference ?? null,
      refund_id: refundId,
      refund_status: refund.status,
      refund_amount_cents: refund.amount_cents,
    };
    let applied = true;
    for (const kind of kinds)
      if (!(await deliver(kind, resource, `${paymentId}:${refundId}`))) applied = false;
    if (applied) await mark(t, finalKey(refundId));
  }
  return result;
}
