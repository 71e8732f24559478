// The mock's tokens: TokenAuthority signs and verifies HS256 JWTs on the mock clock, and
// `authenticate()` checks a bearer token in the spec's order of errors, giving the Caller.
import { randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { ClientRecord, MockState } from '../domain/state.js';
import { MockApiError } from './respond.js';

/** The issuer of every token the mock mints, whatever origin it is reached on. */
export const MOCK_ISSUER = 'https://auth.payments.mock';

/** Who is calling, once the bearer token checks out. */
export interface Caller {
  pool: 'm2m' | 'pos_user';
  partnerId: string;
  /** The machine client id (null for user tokens). */
  clientId: string | null;
  /** The subject: client id or POS user id; rate limits and idempotency keys are kept per subject. */
  subject: string;
  scopes: string[];
  tier: ClientRecord['tier'];
}

/** Signs and checks the mock's tokens (HS256 with a key made per mock instance). */
export class TokenAuthority {
  readonly key = new Uint8Array(randomBytes(32));

  async sign(claims: Record<string, unknown>, subject: string, nowMs: number, ttlSeconds: number) {
    const iat = Math.floor(nowMs / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(MOCK_ISSUER)
      .setSubject(subject)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** Verifies signature, issuer and expiry on the mock clock; maps failures to the spec's codes. */
  async verify(token: string, nowMs: number): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: MOCK_ISSUER,
        algorithms: ['HS256'],
        currentDate: new Date(nowMs),
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new MockApiError(401, 'token_expired', 'The access token has expired; mint a new one');
      }
      throw new MockApiError(401, 'invalid_token', 'The access token is malformed, badly signed or not ours');
    }
  }
}

/** What a route requires of the caller. */
export interface AuthRequirement {
  scope: string;
  /** Whether POS user tokens are accepted (order creation only). */
  allowUserPool?: boolean;
}

/**
 * Checks a request's bearer token in the spec's order: missing_token, invalid_token (signature,
 * format, issuer, pool), token_expired, client_revoked, insufficient_scope.
 */
export async function authenticate(
  authorization: string | null,
  requirement: AuthRequirement,
  authority: TokenAuthority,
  state: MockState,
  nowMs: number,
): Promise<Caller> {
  if (!authorization) throw new MockApiError(401, 'missing_token', 'No Authorization header was sent');
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match?.[1]) {
    throw new MockApiError(401, 'invalid_token', 'The Authorization header is not "Bearer <token>"');
  }
  const claims = await authority.verify(match[1], nowMs);
  const pool = claims.pool;
  const partnerId = typeof claims.partner_id === 'string' ? claims.partner_id : '';
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  if ((pool !== 'm2m' && pool !== 'pos_user') || !partnerId || !subject) {
    throw new MockApiError(401, 'invalid_token', 'The access token is not from a known token pool');
  }
  if (pool === 'pos_user' && !requirement.allowUserPool) {
    throw new MockApiError(
      401,
      'invalid_token',
      'A POS user token is not accepted here; use a machine token',
    );
  }
  let tier: ClientRecord['tier'] = 'standard';
  if (pool === 'm2m') {
    const client = state.clients.get(subject);
    if (!client) throw new MockApiError(401, 'invalid_token', 'The access token names an unknown client');
    if (client.revoked) throw new MockApiError(401, 'client_revoked', 'This machine client has been revoked');
    tier = client.tier;
  }
  if (!scopes.includes(requirement.scope)) {
    throw new MockApiError(403, 'insufficient_scope', `This call needs the scope ${requirement.scope}`);
  }
  return { pool, partnerId, clientId: pool === 'm2m' ? subject : null, subject, scopes, tier };
}
