// The mock's tokens: TokenAuthority signs and verifies HS256 JWTs on the mock clock (node:crypto,
// synchronous, verified tokens cached), and `authenticate()` checks a bearer token in the spec's
// order of errors, giving the Caller.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { ClientRecord, MockState } from '../state.js';
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

/** A token that verified once: its claims and what `authenticate()` reads from them. */
interface Verified {
  claims: Record<string, unknown>;
  /** `exp` in seconds, or undefined for a token without one. */
  exp: number | undefined;
  nbf: number | undefined;
  /** The pool, partner, subject and scopes, read once (null when the claims name no known pool). */
  identity: Omit<Caller, 'tier' | 'clientId'> | null;
  /** The last Caller built from it, reused while its client record and tier stay the same. */
  caller?: Caller;
  client?: ClientRecord;
}

/** How many verified tokens a mock remembers; past it the memory starts again (bounded memory). */
const CACHE_LIMIT = 10_000;
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const invalid = () =>
  new MockApiError(401, 'invalid_token', 'The access token is malformed, badly signed or not ours');
const expired = () => new MockApiError(401, 'token_expired', 'The access token has expired; mint a new one');

function identityOf(claims: Record<string, unknown>): Verified['identity'] {
  const { pool, partner_id: partnerId, sub: subject, scope } = claims;
  if ((pool !== 'm2m' && pool !== 'pos_user') || typeof partnerId !== 'string' || !partnerId) return null;
  if (typeof subject !== 'string' || !subject) return null;
  const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
  return { pool, partnerId, subject, scopes };
}

/**
 * Signs and checks the mock's tokens: HS256 JWTs with a key made per mock instance. A token is
 * verified in full once (signature, header, issuer) and then remembered, so a request with a known
 * token costs a map lookup and the expiry check on the mock clock.
 */
export class TokenAuthority {
  readonly key = new Uint8Array(randomBytes(32));
  private readonly verified = new Map<string, Verified>();

  private mac(input: string): Buffer {
    return createHmac('sha256', this.key).update(input).digest();
  }

  /** A signed JWT with these claims, `iss`, `sub`, `iat`, `exp` and a fresh `jti`. */
  async sign(claims: Record<string, unknown>, subject: string, nowMs: number, ttlSeconds: number) {
    return this.signNow(claims, subject, nowMs, ttlSeconds);
  }

  /** {@link sign}, synchronously. */
  signNow(claims: Record<string, unknown>, subject: string, nowMs: number, ttlSeconds: number): string {
    const iat = Math.floor(nowMs / 1000);
    const payload = {
      ...claims,
      iss: MOCK_ISSUER,
      sub: subject,
      iat,
      exp: iat + ttlSeconds,
      jti: randomUUID(),
    };
    const input = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${input}.${this.mac(input).toString('base64url')}`;
  }

  /** Verifies signature, issuer and expiry on the mock clock; maps failures to the spec's codes. */
  verify(token: string, nowMs: number): Record<string, unknown> {
    return this.check(token, nowMs).claims;
  }

  /** The verified token (from memory after the first time), with `exp` and `nbf` checked at `nowMs`. */
  check(token: string, nowMs: number): Verified {
    const known = this.verified.get(token) ?? this.verifyFully(token);
    const now = Math.floor(nowMs / 1000);
    if (known.exp !== undefined && known.exp <= now) throw expired();
    if (known.nbf !== undefined && known.nbf > now) throw invalid();
    return known;
  }

  private verifyFully(token: string): Verified {
    const parts = token.split('.');
    if (parts.length !== 3) throw invalid();
    const [head, body, signature] = parts as [string, string, string];
    let header: unknown;
    let claims: unknown;
    try {
      header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if ((header as { alg?: unknown } | null)?.alg !== 'HS256') throw invalid();
    const given = Buffer.from(signature, 'base64url');
    const wanted = this.mac(`${head}.${body}`);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid();
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw invalid();
    const c = claims as Record<string, unknown>;
    if (c.iss !== MOCK_ISSUER) throw invalid();
    const numeric = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));
    if (!numeric(c.exp) || !numeric(c.nbf)) throw invalid();
    const verified: Verified = {
      claims: c,
      exp: c.exp as number | undefined,
      nbf: c.nbf as number | undefined,
      identity: identityOf(c),
    };
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
    this.verified.set(token, verified);
    return verified;
  }
}

/** What a route requires of the caller. */
export interface AuthRequirement {
  scope: string;
  /** Whether POS user tokens are accepted (order creation only). */
  allowUserPool?: boolean;
}

const BEARER = /^\s*Bearer\s+(\S+)\s*$/i;

/**
 * Checks a request's bearer token in the spec's order: missing_token, invalid_token (signature,
 * format, issuer, pool), token_expired, client_revoked, insufficient_scope.
 */
export function authenticate(
  authorization: string | null | undefined,
  requirement: AuthRequirement,
  authority: TokenAuthority,
  state: MockState,
  nowMs: number,
): Caller {
  if (!authorization) throw new MockApiError(401, 'missing_token', 'No Authorization header was sent');
  const token = BEARER.exec(authorization)?.[1];
  if (!token) {
    throw new MockApiError(401, 'invalid_token', 'The Authorization header is not "Bearer <token>"');
  }
  const verified = authority.check(token, nowMs);
  const { identity } = verified;
  if (!identity) {
    throw new MockApiError(401, 'invalid_token', 'The access token is not from a known token pool');
  }
  const { pool, partnerId, subject, scopes } = identity;
  if (pool === 'pos_user' && !requirement.allowUserPool) {
    throw new MockApiError(
      401,
      'invalid_token',
      'A POS user token is not accepted here; use a machine token',
    );
  }
  let client: ClientRecord | undefined;
  if (pool === 'm2m') {
    client = state.clients.get(subject);
    if (!client) throw new MockApiError(401, 'invalid_token', 'The access token names an unknown client');
    if (client.revoked) throw new MockApiError(401, 'client_revoked', 'This machine client has been revoked');
  }
  if (!scopes.includes(requirement.scope)) {
    throw new MockApiError(403, 'insufficient_scope', `This call needs the scope ${requirement.scope}`);
  }
  const tier = client?.tier ?? 'standard';
  const cached = verified.caller;
  if (cached && verified.client === client && cached.tier === tier) return cached;
  const caller: Caller = { pool, partnerId, clientId: client ? subject : null, subject, scopes, tier };
  verified.caller = caller;
  verified.client = client;
  return caller;
}
