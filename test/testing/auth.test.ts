import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { mintToken, newOrder, useMock } from './helpers.js';

const h = useMock({ tokenTtlSeconds: 600 });

describe('POST /oauth2/token (spec section 5)', () => {
  it('mints a Bearer JWT for the granted scopes with the configured lifetime', async () => {
    const answer = await mintToken(
      h.server.authUrl,
      h.mock.credentials,
      'svc/payments:create svc/locations:read',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    const claims = decodeJwt(answer.body.access_token);
    expect(claims).toMatchObject({
      sub: h.mock.credentials.clientId,
      scope: 'svc/payments:create svc/locations:read',
      pool: 'm2m',
      partner_id: h.a().partnerId,
    });
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('grants every scope of the client when none is asked for', async () => {
    const answer = await mintToken(h.server.authUrl, h.mock.fixtures.chargeOnlyClient);
    expect(decodeJwt(answer.body.access_token).scope).toBe(
      'svc/payments:create svc/payments:read svc/locations:read',
    );
  });

  it('refuses a JSON body and a grant other than client_credentials with 400 invalid_request', async () => {
    const json = await fetch(`${h.server.authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    });
    expect(json.status).toBe(400);
    const grant = await fetch(`${h.server.authUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password',
    });
    expect(((await grant.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('answers an unknown client like a wrong secret (401 invalid_client)', async () => {
    const answer = await mintToken(h.server.authUrl, { clientId: 'nobody', clientSecret: 'x' });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_client');
  });
});

describe('bearer checks in the spec order', () => {
  const forged = (
    claims: Record<string, unknown>,
    key = new Uint8Array(32),
    issuer = 'https://auth.payments.mock',
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setSubject(h.mock.credentials.clientId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);

  it.each([
    ['a non-Bearer scheme', () => Promise.resolve('Basic abc'), 'invalid_token'],
    [
      'a token signed with another key',
      async () => `Bearer ${await forged({ pool: 'm2m', partner_id: 'x', scope: 'svc/locations:read' })}`,
      'invalid_token',
    ],
  ])('%s -> 401 %s', async (_what, header, code) => {
    const answer = await h.call('GET', '/pos/v1/locations', {
      token: null,
      headers: { authorization: await header() },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe(code);
  });

  it('a token from the POS user pool is invalid_token outside order creation', async () => {
    const token = await h.mock.issueUserToken({ partnerId: h.a().partnerId });
    const answer = await h.call('GET', '/pos/v1/locations', { token });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_token');
  });

  it('a user-pool token creates an order, recorded with opened_by_m2m_client_id null', async () => {
    const token = await h.mock.issueUserToken({ partnerId: h.a().partnerId });
    const created = await h.call('POST', '/pos/v1/orders', {
      token,
      body: { location_id: h.a().location, total_cents: 100 },
    });
    expect(created.status).toBe(201);
    const order = await h.call('GET', `/pos/v1/orders/${created.body.order_id}`);
    expect(order.body.opened_by_m2m_client_id).toBeNull();
  });

  it('a machine-created order records the client id', async () => {
    const order = await h.call('GET', `/pos/v1/orders/${await newOrder(h)}`);
    expect(order.body.opened_by_m2m_client_id).toBe(h.mock.credentials.clientId);
  });

  it('expiry is checked before revocation, revocation before scope', async () => {
    const token = await h.token(h.mock.credentials, 'svc/locations:read');
    h.mock.revokeClient(h.mock.credentials.clientId);
    expect((await h.call('POST', '/pos/v1/orders', { token, body: {} })).body.error).toBe('client_revoked');
    h.mock.clock.advance(600_000);
    expect((await h.call('POST', '/pos/v1/orders', { token, body: {} })).body.error).toBe('token_expired');
  });

  it('a token one second before expiry still works', async () => {
    const token = await h.token();
    h.mock.clock.advance(599_000);
    expect((await h.call('GET', '/pos/v1/locations?limit=1', { token })).status).toBe(200);
  });
});
