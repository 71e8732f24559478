// The mock's in-memory state: the record types of clients, locations, orders, payments, refunds,
// webhook endpoints and launch tokens, and MockState, which holds them all with the partner tree
// (who is inside whose subtree) and forgets the oldest orders past a limit.
import type { KnownEventKind } from '../schemas/events.js';

/**
 * A rate tier of a machine client (spec section 8).
 *
 * @example
 * const client = mock.addClient({ partnerId, tier: 'low' satisfies RateTier });
 */
export type RateTier = 'low' | 'standard' | 'high' | 'enterprise';

export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  partnerId: string;
  scopes: string[];
  tier: RateTier;
  revoked: boolean;
}

export interface LocationRecord {
  location_id: string;
  partner_id: string;
  organization_id: string;
  name: string;
  address: { line1: string; city: string; state: string; zip: string; country: string };
  timezone: string;
  currency: string;
  active: boolean;
  features: string[];
  created_at: string;
}

export interface PaymentRecord {
  payment_id: string;
  order_id: string;
  status: string;
  amount_cents: number;
  method: 'card';
  processor_reference: string;
  created_at: string;
  updated_at: string;
  voided_at: string | null;
  settled_at: string | null;
  /** Mock-clock milliseconds after which a pending payment expires. */
  expiresAtMs: number;
  level3: unknown;
}

export interface RefundRecord {
  refund_id: string;
  payment_id: string;
  order_id: string;
  status: string;
  amount_cents: number;
  reason: string | null;
  created_at: string;
  processor_message: string | null;
}

export interface OrderRecord {
  order_id: string;
  partner_id: string;
  location_id: string;
  total_cents: number;
  description: string | null;
  external_reference: string | null;
  external_source: string | null;
  external_id: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  department_id: string | null;
  metadata: Record<string, unknown> | null;
  level3: unknown;
  return_url: string | null;
  cancel_url: string | null;
  opened_by_m2m_client_id: string | null;
  created_at: string;
  updated_at: string;
  /** Payment ids in creation order. */
  paymentIds: string[];
  /** Whether the hosted checkout page already took a successful payment (its URL is then 410 Gone). */
  checkoutUsed: boolean;
}

export interface WebhookEndpointRecord {
  webhook_endpoint_id: string;
  partner_id: string;
  url: string;
  event_kinds: KnownEventKind[] | null;
  description: string | null;
  signing_secret: string;
  created_at: string;
}

export interface LaunchTokenRecord {
  partnerId: string;
  locationId: string;
  roleSlug: string;
  userRef: string;
  expiresAtMs: number;
  used: boolean;
}

/**
 * What an Idempotency-Key remembers: a digest of the body it came with, when, and the order it
 * made. The answer is rebuilt from the order on a replay; only an answer with a hosted checkout
 * URL (a signed token that cannot be made again alike) is kept as it was.
 */
export interface IdempotencyEntry {
  fingerprint: string;
  atMs: number;
  orderId: string;
  /** The first answer, kept only when it carries `hosted_checkout_url`. */
  body?: Record<string, unknown>;
}

/** Everything the mock service holds. One instance per mock; `reset()` clears it in place. */
export class MockState {
  readonly clients = new Map<string, ClientRecord>();
  readonly locations = new Map<string, LocationRecord>();
  /** Oldest first (a Map keeps insertion order): the first order is the first to go past the limit. */
  readonly orders = new Map<string, OrderRecord>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly launchTokens = new Map<string, LaunchTokenRecord>();
  /** POS users provisioned by launch exchanges, keyed by partner, location and user reference. */
  readonly posUsers = new Map<string, { userId: string; roleSlug: string }>();
  /** Every partner with its parent partner (null for a partner at the top of its tree). */
  readonly partners = new Map<string, string | null>();
  /** Order-creation answers by subject and Idempotency-Key (forgotten with their order). */
  readonly idempotency = new Map<string, IdempotencyEntry>();
  /** Refund ids of each payment, oldest first. */
  private readonly refundIds = new Map<string, string[]>();
  /** The Idempotency-Key entry that created each order. */
  private readonly orderKeys = new Map<string, string>();
  /**
   * Order ids oldest first, for eviction: a queue read from `head` (a Map read from its first key
   * would step over every deleted entry each time).
   */
  private orderQueue: string[] = [];
  private head = 0;

  /** Forgets everything (reset): the same maps, emptied. */
  clear(): void {
    for (const map of [
      this.clients,
      this.locations,
      this.orders,
      this.payments,
      this.refunds,
      this.webhookEndpoints,
      this.launchTokens,
      this.posUsers,
      this.idempotency,
      this.partners,
      this.refundIds,
      this.orderKeys,
    ] as Map<unknown, unknown>[]) {
      map.clear();
    }
    this.orderQueue = [];
    this.head = 0;
  }

  /** Stores a new order (the newest: the last to be evicted). */
  addOrder(order: OrderRecord): void {
    this.orders.set(order.order_id, order);
    this.orderQueue.push(order.order_id);
  }

  /** Adds a partner, under `parentPartnerId` when given. */
  addPartner(partnerId: string, parentPartnerId: string | null = null): void {
    this.partners.set(partnerId, parentPartnerId);
  }

  /**
   * Whether `partnerId` is inside the subtree of `ancestorId` (spec 1.8): the partner itself, its
   * children, their children, and so on. A parent sees its children's records; a child not its parent's.
   */
  inSubtree(ancestorId: string, partnerId: string): boolean {
    let current: string | null | undefined = partnerId;
    // The depth bound keeps a (never seeded) cycle from looping.
    for (let depth = 0; current && depth < 64; depth++) {
      if (current === ancestorId) return true;
      current = this.partners.get(current);
    }
    return false;
  }

  /** The locations inside the partner's subtree, in the order they were added. */
  locationsOf(partnerId: string): LocationRecord[] {
    return [...this.locations.values()].filter((l) => this.inSubtree(partnerId, l.partner_id));
  }

  paymentsOf(order: OrderRecord): PaymentRecord[] {
    return order.paymentIds.map((id) => this.payments.get(id)).filter((p) => p !== undefined);
  }

  addRefund(refund: RefundRecord): void {
    this.refunds.set(refund.refund_id, refund);
    const ids = this.refundIds.get(refund.payment_id);
    if (ids) ids.push(refund.refund_id);
    else this.refundIds.set(refund.payment_id, [refund.refund_id]);
  }

  refundsOf(paymentId: string): RefundRecord[] {
    const ids = this.refundIds.get(paymentId) ?? [];
    return ids.map((id) => this.refunds.get(id)).filter((r) => r !== undefined);
  }

  /** Remembers an order-creation answer under its Idempotency-Key (forgotten with the order). */
  rememberOrderKey(storeKey: string, entry: IdempotencyEntry): void {
    this.idempotency.set(storeKey, entry);
    this.orderKeys.set(entry.orderId, storeKey);
  }

  /**
   * Forgets the oldest order with its payments, refunds and Idempotency-Key entry; returns it (with
   * its payment ids) so the caller can forget what it keeps about them, or undefined when none.
   */
  evictOldestOrder(): OrderRecord | undefined {
    let order: OrderRecord | undefined;
    while (!order && this.head < this.orderQueue.length) {
      order = this.orders.get(this.orderQueue[this.head++]!);
    }
    // The queue drops what it has read once that is half of it (amortized O(1) per order).
    if (this.head > 1024 && this.head * 2 > this.orderQueue.length) {
      this.orderQueue = this.orderQueue.slice(this.head);
      this.head = 0;
    }
    if (!order) return undefined;
    this.orders.delete(order.order_id);
    for (const paymentId of order.paymentIds) {
      this.payments.delete(paymentId);
      for (const refundId of this.refundIds.get(paymentId) ?? []) this.refunds.delete(refundId);
      this.refundIds.delete(paymentId);
    }
    const key = this.orderKeys.get(order.order_id);
    if (key !== undefined) {
      this.orderKeys.delete(order.order_id);
      this.idempotency.delete(key);
    }
    return order;
  }
}
