// The mock's token endpoint (spec section 5): the client-credentials grant at `POST /oauth2/token`.
import { timingSafeEqual } from 'node:crypto';
import { SCOPES } from '../../schemas/common.js';
import type { MockCore } from '../engine/mock-core.js';
import { json, MockApiError } from '../engine/respond.js';
import type { Handlers } from './handlers.js';

const KNOWN_SCOPES = new Set<string>(SCOPES);

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `POST {auth_url}/oauth2/token`: the client-credentials grant (spec section 5). */
export function tokenRoutes(core: MockCore): Pick<Handlers, 'mintToken'> {
  return {
    async mintToken(ctx) {
      const type = ctx.headers.get('content-type') ?? '';
      if (!type.includes('application/x-www-form-urlencoded')) {
        throw new MockApiError(400, 'invalid_request', 'Send the token request form-encoded');
      }
      const form = new URLSearchParams(ctx.rawBody);
      if (form.get('grant_type') !== 'client_credentials') {
        throw new MockApiError(400, 'invalid_request', 'grant_type must be client_credentials');
      }
      const clientId = form.get('client_id') ?? '';
      const secret = form.get('client_secret') ?? '';
      const client = core.state.clients.get(clientId);
      // Unknown client and wrong secret answer alike, so the endpoint does not reveal client ids.
      if (!client || !sameSecret(client.clientSecret, secret)) {
        throw new MockApiError(401, 'invalid_client', 'Client authentication failed');
      }
      if (client.revoked)
        throw new MockApiError(401, 'client_revoked', 'This machine client has been revoked');
      const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
      const scopes = asked.length === 0 ? client.scopes : asked;
      const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
      if (unknown.length > 0)
        throw new MockApiError(400, 'invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
      const notGranted = scopes.filter((s) => !client.scopes.includes(s));
      if (notGranted.length > 0) {
        throw new MockApiError(
          400,
          'invalid_scope',
          `Scope not granted to this client: ${notGranted.join(' ')}`,
        );
      }
      const ttl = core.options.tokenTtlSeconds;
      const token = await core.authority.sign(
        { pool: 'm2m', client_id: client.clientId, partner_id: client.partnerId, scope: scopes.join(' ') },
        client.clientId,
        core.clock.now(),
        ttl,
      );
      // The fields of spec 5.3, and no more: the granted scopes are in the token's claims.
      return json(200, { access_token: token, expires_in: ttl, token_type: 'Bearer' }, ctx.requestId, {
        'cache-control': 'no-store',
      });
    },
  };
}
