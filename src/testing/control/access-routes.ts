// The control API's access routes (`/_mock/v1`): the fixtures with their mock credentials, new
// machine clients, revoking one, POS user-pool tokens, and maintenance mode, for tests in any language.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { MockApiError } from '../engine/respond.js';
import type { MockState } from '../state.js';
import type { ControlDeps, ControlRoute } from './routes.js';
import * as S from './schemas.js';

/** A partner the mock holds, or 404 `partner_not_found`. */
function knownPartner(state: MockState, partnerId: string): string {
  if (!state.partners.has(partnerId)) {
    throw new MockApiError(404, 'partner_not_found', `The mock holds no partner ${partnerId}`);
  }
  return partnerId;
}

const FIXTURES_NOTE =
  'Mock credentials: fixed, public and printed on purpose, accepted by this mock only. Never a real secret.';

/** Every partner with its parent, clients (secrets included: mock credentials) and locations. */
export function fixturesView(deps: ControlDeps): z.output<typeof S.FixturesView> {
  const state = deps.state();
  const { fixtures } = deps.mock;
  const partners = [...state.partners].map(([partnerId, parent]) => {
    const locations = [...state.locations.values()].filter((l) => l.partner_id === partnerId);
    return {
      partner_id: partnerId,
      parent_partner_id: parent,
      organization_id: locations[0]?.organization_id ?? null,
      clients: [...state.clients.values()]
        .filter((c) => c.partnerId === partnerId)
        .map((c) => ({
          client_id: c.clientId,
          client_secret: c.clientSecret,
          scopes: [...c.scopes],
          tier: c.tier,
          revoked: c.revoked,
        })),
      locations: locations.map((l) => ({
        location_id: l.location_id,
        name: l.name,
        active: l.active,
        features: [...l.features],
      })),
    };
  });
  const [a, b] = fixtures.partners;
  const named =
    a && b
      ? {
          default_client_id: deps.mock.credentials.clientId,
          low_tier_client_id: fixtures.lowTierClient.clientId,
          charge_only_client_id: fixtures.chargeOnlyClient.clientId,
          revoked_client_id: fixtures.revokedClient.clientId,
          isolated_partner_id: b.partnerId,
          parent_partner_id: fixtures.parentPartner.partnerId,
          child_partner_id: fixtures.childPartner.partnerId,
        }
      : null;
  return { note: FIXTURES_NOTE, partners, named };
}

/** The access controls: fixtures, clients, user tokens and maintenance. */
export const ACCESS_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_mock/v1/fixtures',
    operationId: 'getFixtures',
    summary:
      'Every partner (with its parent), machine client (mock credentials: id, secret, scopes, tier, revoked) and location (with its features)',
    tag: 'access',
    status: 200,
    response: S.FixturesView,
    errors: [],
    handle: (_ctx, deps) => fixturesView(deps),
  },
  {
    method: 'POST',
    path: '/_mock/v1/clients',
    operationId: 'createClient',
    summary:
      'Create a machine client for a partner, with chosen scopes (default all) and tier (default standard)',
    tag: 'access',
    body: S.ClientCreate,
    status: 201,
    response: S.ClientCreated,
    errors: [404],
    handle({ body }, deps) {
      const input = body as z.output<typeof S.ClientCreate>;
      const partnerId = knownPartner(deps.state(), input.partner_id);
      const client = deps.mock.addClient({
        partnerId,
        ...(input.scopes ? { scopes: [...new Set(input.scopes)] } : {}),
        ...(input.tier ? { tier: input.tier } : {}),
      });
      return {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        partner_id: partnerId,
        scopes: [...client.scopes],
        tier: client.tier,
      };
    },
  },
  {
    method: 'POST',
    path: '/_mock/v1/clients/{client_id}/revoke',
    operationId: 'revokeClient',
    summary: 'Revoke a machine client: its tokens and new token requests answer 401 client_revoked',
    tag: 'access',
    status: 200,
    response: S.ClientRevoked,
    errors: [404],
    handle({ params }, deps) {
      const id = params.client_id!;
      if (!deps.state().clients.has(id)) {
        throw new MockApiError(404, 'client_not_found', `The mock holds no client ${id}`);
      }
      deps.mock.revokeClient(id);
      return { client_id: id, revoked: true as const };
    },
  },
  {
    method: 'POST',
    path: '/_mock/v1/user-tokens',
    operationId: 'createUserToken',
    summary: 'Mint a POS user-pool token for a partner (accepted by order creation only, spec 5.6)',
    tag: 'access',
    body: S.UserTokenCreate,
    status: 201,
    response: S.UserToken,
    errors: [404],
    async handle({ body }, deps) {
      const input = body as z.output<typeof S.UserTokenCreate>;
      const partnerId = knownPartner(deps.state(), input.partner_id);
      const userId = input.user_id ?? randomUUID();
      const token = await deps.mock.issueUserToken({ partnerId, userId });
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        expires_in: claims.exp - claims.iat,
        partner_id: partnerId,
        user_id: userId,
      };
    },
  },
  {
    method: 'POST',
    path: '/_mock/v1/maintenance',
    operationId: 'setMaintenance',
    summary: 'Switch maintenance on (every API request answers 503 service_unavailable) or off',
    tag: 'access',
    body: S.MaintenanceSet,
    status: 200,
    response: S.MaintenanceState,
    errors: [],
    handle({ body }, deps) {
      const { on } = body as z.output<typeof S.MaintenanceSet>;
      deps.mock.setMaintenance(on);
      return { maintenance: on };
    },
  },
];
