import { describe, expect, it } from 'vitest';
import { type Answer, mintToken, useMock } from '../testing/helpers.js';
import { control } from './helpers.js';

// The access controls of the control API, over raw HTTP as a test in any language drives them.

const h = useMock();

interface FixtureClientJson {
  client_id: string;
  client_secret: string;
  scopes: string[];
  tier: string;
  revoked: boolean;
}
interface FixturePartnerJson {
  partner_id: string;
  parent_partner_id: string | null;
  clients: FixtureClientJson[];
  locations: { location_id: string; name: string; active: boolean; features: string[] }[];
}

const fixtures = async () =>
  (await control(h, 'GET', '/fixtures')).body as {
    note: string;
    partners: FixturePartnerJson[];
    named: Record<string, string>;
  };
const partner = (all: FixturePartnerJson[], id: string) => all.find((p) => p.partner_id === id)!;

async function raw(path: string, init: { token: string; body?: unknown; method?: string }): Promise<Answer> {
  return h.call(init.method ?? (init.body === undefined ? 'GET' : 'POST'), path, {
    token: init.token,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

describe('GET /_mock/v1/fixtures', () => {
  it('lists every partner with its parent, clients with their mock credentials, and locations with features', async () => {
    const f = await fixtures();
    expect(f.note).toContain('Mock credentials');
    const { partners } = h.mock.fixtures;
    expect(f.partners.map((p) => p.partner_id)).toEqual(partners.map((p) => p.partnerId));
    const a = partner(f.partners, partners[0]!.partnerId);
    expect(a.parent_partner_id).toBeNull();
    expect(a.clients.map((c) => c.client_id)).toEqual(partners[0]!.clients.map((c) => c.clientId));
    expect(a.clients.find((c) => c.client_id === h.mock.fixtures.revokedClient.clientId)?.revoked).toBe(true);
    expect(a.clients.find((c) => c.client_id === h.mock.fixtures.lowTierClient.clientId)?.tier).toBe('low');
    expect(a.locations).toHaveLength(60);
    expect(a.locations.find((l) => l.location_id === partners[0]!.locations.noPayments)?.features).toEqual([
      'pos',
      'inventory',
    ]);
    const child = partner(f.partners, f.named.child_partner_id!);
    expect(child.parent_partner_id).toBe(f.named.parent_partner_id);
    expect(f.named).toMatchObject({
      default_client_id: h.mock.credentials.clientId,
      low_tier_client_id: h.mock.fixtures.lowTierClient.clientId,
      isolated_partner_id: partners[1]!.partnerId,
    });
    // Every listed credential works as printed.
    const { client_id, client_secret } = partner(f.partners, f.named.parent_partner_id!).clients[0]!;
    expect(
      (await mintToken(h.server.authUrl, { clientId: client_id, clientSecret: client_secret })).status,
    ).toBe(200);
  });
});

describe('POST /_mock/v1/clients and /clients/{id}/revoke', () => {
  it('creates a low-tier client that meets 429 with Retry-After past its burst; revoking it gives client_revoked', async () => {
    const created = await control(h, 'POST', '/clients', { partner_id: h.a().partnerId, tier: 'low' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ partner_id: h.a().partnerId, tier: 'low' });
    expect(created.body.scopes).toContain('svc/locations:read');
    const credentials = { clientId: created.body.client_id, clientSecret: created.body.client_secret };
    const token = (await mintToken(h.server.authUrl, credentials)).body.access_token;
    const answers: Answer[] = [];
    for (let i = 0; i < 11; i++) answers.push(await raw(`/pos/v1/locations/${h.a().location}`, { token }));
    expect(answers.slice(0, 10).every((a) => a.status === 200)).toBe(true);
    expect([answers[10]!.status, answers[10]!.body.error]).toEqual([429, 'rate_limit_exceeded']);
    expect(answers[10]!.headers.get('retry-after')).toBe('1');
    expect((await fixtures()).partners[0]!.clients.map((c) => c.client_id)).toContain(created.body.client_id);

    const revoked = await control(h, 'POST', `/clients/${created.body.client_id}/revoke`);
    expect(revoked.body).toEqual({ client_id: created.body.client_id, revoked: true });
    h.mock.clock.advance(10_000); // the bucket refills: the refusal is the revocation, not the limit
    const after = await raw(`/pos/v1/locations/${h.a().location}`, { token });
    expect([after.status, after.body.error]).toEqual([401, 'client_revoked']);
    expect((await mintToken(h.server.authUrl, credentials)).body.error).toBe('client_revoked');
  });

  it('takes chosen scopes; refuses an unknown partner (404), an unknown scope or tier (422), an unknown client (404)', async () => {
    const charge = await control(h, 'POST', '/clients', {
      partner_id: h.a().partnerId,
      scopes: ['svc/payments:read'],
    });
    expect(charge.body).toMatchObject({ scopes: ['svc/payments:read'], tier: 'standard' });
    const token = (
      await mintToken(h.server.authUrl, {
        clientId: charge.body.client_id,
        clientSecret: charge.body.client_secret,
      })
    ).body.access_token;
    const denied = await raw(`/pos/v1/locations/${h.a().location}`, { token });
    expect([denied.status, denied.body.error]).toEqual([403, 'insufficient_scope']);
    const refusals = [
      [await control(h, 'POST', '/clients', { partner_id: 'nobody' }), 404, 'partner_not_found'],
      [await control(h, 'POST', '/clients', { partner_id: h.a().partnerId, scopes: ['svc/all'] }), 422],
      [await control(h, 'POST', '/clients', { partner_id: h.a().partnerId, tier: 'platinum' }), 422],
      [await control(h, 'POST', '/clients/nobody/revoke'), 404, 'client_not_found'],
    ] as const;
    for (const [answer, status, code] of refusals) {
      expect(answer.status).toBe(status);
      if (code) expect(answer.body.error).toBe(code);
    }
  });
});

describe('POST /_mock/v1/user-tokens', () => {
  it('mints a POS user token: order creation takes it (opened_by_m2m_client_id null), other routes answer invalid_token', async () => {
    const minted = await control(h, 'POST', '/user-tokens', { partner_id: h.a().partnerId });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      partner_id: h.a().partnerId,
    });
    const token = minted.body.access_token as string;
    const order = await raw('/pos/v1/orders', {
      token,
      body: { location_id: h.a().location, total_cents: 500 },
    });
    expect(order.status).toBe(201);
    const read = await h.call('GET', `/pos/v1/orders/${order.body.order_id}`);
    expect(read.body.opened_by_m2m_client_id).toBeNull();
    const wrongPool = await raw(`/pos/v1/orders/${order.body.order_id}`, { token });
    expect([wrongPool.status, wrongPool.body.error]).toEqual([401, 'invalid_token']);
    const unknown = await control(h, 'POST', '/user-tokens', { partner_id: 'nobody' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'partner_not_found']);
  });
});

describe('POST /_mock/v1/maintenance', () => {
  it('turns every API request into 503 service_unavailable with Retry-After, and back; the control API stays up', async () => {
    const token = await h.token();
    expect((await control(h, 'POST', '/maintenance', { on: true })).body).toEqual({ maintenance: true });
    const down = await raw(`/pos/v1/locations/${h.a().location}`, { token });
    expect([down.status, down.body.error, down.headers.get('retry-after')]).toEqual([
      503,
      'service_unavailable',
      '1',
    ]);
    const minting = await mintToken(h.server.authUrl, h.mock.credentials);
    expect(minting.status).toBe(503);
    expect((await control(h, 'GET', '/clock')).status).toBe(200);
    // The dashboard shows it, with the button that ends it, and links the fixtures.
    const page = (await fetch(`${h.server.baseUrl}/_mock/`).then((r) => r.text())) as string;
    expect(page).toContain('maintenance: every API request answers 503');
    expect(page).toContain(`data-body='{"on":false}'`);
    expect(page).toContain('href="/_mock/v1/fixtures"');
    expect((await control(h, 'POST', '/maintenance', { on: false })).body).toEqual({ maintenance: false });
    expect((await raw(`/pos/v1/locations/${h.a().location}`, { token })).status).toBe(200);
    expect((await control(h, 'POST', '/maintenance', { on: 'yes' })).status).toBe(400);
  });
});

describe('the control API document', () => {
  it('describes every new control', async () => {
    const doc = (await control(h, 'GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const [path, method] of [
      ['/_mock/v1/fixtures', 'get'],
      ['/_mock/v1/clients', 'post'],
      ['/_mock/v1/clients/{client_id}/revoke', 'post'],
      ['/_mock/v1/user-tokens', 'post'],
      ['/_mock/v1/maintenance', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
