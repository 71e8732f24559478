// The mock's seeded data: two flat partners with their locations and machine clients (revoked,
// low-tier and charge-only ones too), a parent partner with one child partner, all with stable ids;
// and the builders of location and client records.
import { SCOPES } from '../../schemas/common.js';
import type { ClientRecord, LocationRecord, MockState, RateTier } from '../state.js';

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
  /** The partner above this one (its subtree includes this one), or null. */
  parentPartnerId: string | null;
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
  /**
   * Every seeded partner: A and B (flat, for isolation tests), then the parent C and its child D
   * (for the partner subtree, spec 1.8).
   */
  partners: FixturePartner[];
  /** Partner C: its subtree holds partner D, so it sees D's locations, orders and payments. */
  parentPartner: FixturePartner;
  /** Partner D, a child of partner C: it sees its own records only, not C's. */
  childPartner: FixturePartner;
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
  mainTier: RateTier,
  parentPartnerId: string | null = null,
): FixturePartner {
  const group = index + 1;
  const partnerId = seedUuid(group, 0xa000);
  const organizationId = seedUuid(group, 0xb000);
  state.addPartner(partnerId, parentPartnerId);
  const letter = String.fromCharCode(97 + index);
  const main = storeClient(state, partnerId, {
    clientId: `mock-partner-${letter}-all`,
    clientSecret: `mock-secret-${letter}-all-scopes`,
    scopes: ALL_SCOPES,
    tier: mainTier,
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
    parentPartnerId,
    organizationId,
    clients: [main],
    locations: { payments: all[0]!, noPayments: all[1]!, inactive: all[2]!, all },
  };
}

/**
 * Seeds partners A (60 locations) and B, their clients, a revoked, a low-tier and a charge-only
 * client of A, and the parent partner C with its child D. `mainTier` is the tier of A's all-scopes
 * client (`mock.credentials`): `high` by default, so that SDK tests with ~100 parallel calls are
 * not throttled.
 */
export function seedFixtures(state: MockState, createdAt: string, mainTier: RateTier = 'high'): MockFixtures {
  const a = seedPartner(state, 0, 57, createdAt, mainTier);
  const b = seedPartner(state, 1, 2, createdAt, 'standard');
  const parent = seedPartner(state, 2, 1, createdAt, 'standard');
  const child = seedPartner(state, 3, 1, createdAt, 'standard', parent.partnerId);
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
  return {
    partners: [a, b, parent, child],
    parentPartner: parent,
    childPartner: child,
    revokedClient,
    lowTierClient,
    chargeOnlyClient,
  };
}
