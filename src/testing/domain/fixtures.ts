// The mock's seeded data: two partners with their locations and machine clients (revoked, low-tier
// and charge-only ones too), with stable ids, and the builders of location and client records.
import { SCOPES } from '../../schemas/common.js';
import type { ClientRecord, LocationRecord, MockState, RateTier } from './state.js';

/**
 * A machine client as the fixtures describe it.
 *
 * @example
 * const { clientId, clientSecret } = mock.fixtures.lowTierClient;
 */
export interface FixtureClient {
  clientId: string;
  clientSecret: string;
  scopes: string[];
  tier: RateTier;
}

/**
 * One seeded partner.
 *
 * @example
 * const { partnerId, locations } = mock.fixtures.partners[0]!;
 * await client.orders.create({ location_id: locations.payments, total_cents: 1000 });
 */
export interface FixturePartner {
  partnerId: string;
  organizationId: string;
  /** The first client has every scope. */
  clients: FixtureClient[];
  locations: {
    /** Active, with the `payments` feature: orders and payments work here. */
    payments: string;
    /** Active, without the `payments` feature: orders and payments are refused with 422 `validation_error`. */
    noPayments: string;
    /** Inactive: orders and payments are refused with 422 `validation_error`. */
    inactive: string;
    /** Every location of the partner (enough for more than one page of 50 for the first partner). */
    all: string[];
  };
}

/**
 * The seeded data of a mock.
 *
 * @example
 * const other = mock.fixtures.partners[1]!; // a second partner, for scope-isolation tests
 */
export interface MockFixtures {
  partners: FixturePartner[];
  /** A client of the first partner that is revoked: minting answers 401 `client_revoked`. */
  revokedClient: FixtureClient;
  /** A client of the first partner on the `low` tier (burst 10, sustained 5 per second). */
  lowTierClient: FixtureClient;
  /** A client of the first partner with only the minimum charging scopes (no refund, launch, webhooks). */
  chargeOnlyClient: FixtureClient;
}

const ALL_SCOPES = [...SCOPES];
const CHARGE_SCOPES = ['svc/payments:create', 'svc/payments:read', 'svc/locations:read'];

/** A stable UUID built from a small number, so seeded ids stay the same from run to run. */
export function seedUuid(group: number, n: number): string {
  const hex = (v: number, width: number) => v.toString(16).padStart(width, '0');
  return `${hex(group, 8)}-0000-4000-8000-${hex(n, 12)}`;
}

const CITIES = ['Austin', 'Denver', 'Columbus', 'Portland', 'Raleigh', 'Tucson', 'Omaha', 'Boise'];

/** Builds a location record; `n` makes its name and address distinct. */
export function makeLocation(
  partnerId: string,
  organizationId: string,
  id: string,
  n: number,
  createdAt: string,
  overrides: Partial<LocationRecord> = {},
): LocationRecord {
  const city = CITIES[n % CITIES.length] ?? 'Austin';
  return {
    location_id: id,
    partner_id: partnerId,
    organization_id: organizationId,
    name: `${city} Store ${n}`,
    address: {
      line1: `${100 + n} Main St`,
      city,
      state: 'TX',
      zip: `7${String(n).padStart(4, '0')}`,
      country: 'US',
    },
    timezone: 'America/Chicago',
    currency: 'USD',
    active: true,
    features: ['payments', 'pos'],
    created_at: createdAt,
    ...overrides,
  };
}

/** Stores a machine client in the mock's state; returns it as the fixtures describe it. */
export function storeClient(
  state: MockState,
  partnerId: string,
  client: FixtureClient,
  revoked = false,
): FixtureClient {
  const record: ClientRecord = { ...client, scopes: [...client.scopes], partnerId, revoked };
  state.clients.set(client.clientId, record);
  return client;
}

function seedPartner(
  state: MockState,
  index: number,
  extraLocations: number,
  createdAt: string,
): FixturePartner {
  const group = index + 1;
  const partnerId = seedUuid(group, 0xa000);
  const organizationId = seedUuid(group, 0xb000);
  state.partners.add(partnerId);
  const letter = String.fromCharCode(97 + index);
  const main = storeClient(state, partnerId, {
    clientId: `mock-partner-${letter}-all`,
    clientSecret: `mock-secret-${letter}-all-scopes`,
    scopes: ALL_SCOPES,
    // The first partner's main client is `high` so that SDK tests with ~100 parallel calls are not throttled.
    tier: index === 0 ? 'high' : 'standard',
  });
  const special = [
    makeLocation(partnerId, organizationId, seedUuid(group, 1), 1, createdAt, {
      name: `Partner ${letter.toUpperCase()} Flagship`,
    }),
    makeLocation(partnerId, organizationId, seedUuid(group, 2), 2, createdAt, {
      name: `Partner ${letter.toUpperCase()} Parts Counter`,
      features: ['pos', 'inventory'],
    }),
    makeLocation(partnerId, organizationId, seedUuid(group, 3), 3, createdAt, {
      name: `Partner ${letter.toUpperCase()} Closed Branch`,
      active: false,
    }),
  ];
  for (const l of special) state.locations.set(l.location_id, l);
  const all = special.map((l) => l.location_id);
  for (let n = 4; n < 4 + extraLocations; n++) {
    const l = makeLocation(partnerId, organizationId, seedUuid(group, n), n, createdAt);
    state.locations.set(l.location_id, l);
    all.push(l.location_id);
  }
  return {
    partnerId,
    organizationId,
    clients: [main],
    locations: { payments: all[0]!, noPayments: all[1]!, inactive: all[2]!, all },
  };
}

/** Seeds two partners (the first with 60 locations), their clients, a revoked and a low-tier client. */
export function seedFixtures(state: MockState, createdAt: string): MockFixtures {
  const a = seedPartner(state, 0, 57, createdAt);
  const b = seedPartner(state, 1, 2, createdAt);
  const lowTierClient = storeClient(state, a.partnerId, {
    clientId: 'mock-partner-a-low',
    clientSecret: 'mock-secret-a-low-tier',
    scopes: ALL_SCOPES,
    tier: 'low',
  });
  const chargeOnlyClient = storeClient(state, a.partnerId, {
    clientId: 'mock-partner-a-charge',
    clientSecret: 'mock-secret-a-charge-only',
    scopes: CHARGE_SCOPES,
    tier: 'standard',
  });
  const revokedClient = storeClient(
    state,
    a.partnerId,
    {
      clientId: 'mock-partner-a-revoked',
      clientSecret: 'mock-secret-a-revoked',
      scopes: ALL_SCOPES,
      tier: 'standard',
    },
    true,
  );
  a.clients.push(lowTierClient, chargeOnlyClient, revokedClient);
  return { partners: [a, b], revokedClient, lowTierClient, chargeOnlyClient };
}
