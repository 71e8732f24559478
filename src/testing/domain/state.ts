// The mock's in-memory state: the record types of clients, locations, orders, payments, refunds,
// webhook endpoints and launch tokens, and MockState, which holds them all.
import type { KnownEventKind } from '../../schemas/events.js';

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

/** Everything the mock service holds. One instance per mock; `reset()` clears it in place. */
export class MockState {
  readonly clients = new Map<string, ClientRecord>();
  readonly locations = new Map<string, LocationRecord>();
  readonly orders = new Map<string, OrderRecord>();
  readonly payments = new Map<string, PaymentRecord>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly webhookEndpoints = new Map<string, WebhookEndpointRecord>();
  readonly launchTokens = new Map<string, LaunchTokenRecord>();
  /** POS users provisioned by launch exchanges, keyed by partner, location and user reference. */
  readonly posUsers = new Map<string, { userId: string; roleSlug: string }>();
  readonly partners = new Set<string>();
  /** Order-creation responses by subject and Idempotency-Key. */
  readonly idempotency = new Map<string, { fingerprint: string; atMs: number; body: unknown }>();

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
    ] as Map<unknown, unknown>[]) {
      map.clear();
    }
    this.partners.clear();
  }

  locationsOf(partnerId: string): LocationRecord[] {
    return [...this.locations.values()].filter((l) => l.partner_id === partnerId);
  }

  paymentsOf(order: OrderRecord): PaymentRecord[] {
    return order.paymentIds.map((id) => this.payments.get(id)).filter((p) => p !== undefined);
  }

  refundsOf(paymentId: string): RefundRecord[] {
    return [...this.refunds.values()].filter((r) => r.payment_id === paymentId);
  }
}
