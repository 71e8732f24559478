import { expect, it } from 'vitest';
import { AuthenticationError, NotFoundError, PermissionDeniedError, verifyWebhook } from '../../src/index.js';
import { describeWithMock } from './mock-harness.js';

describeWithMock('launch tokens, webhook endpoints, specs', (h) => {
  // A client granted only the minimum charging scopes (no svc/pos:launch, no svc/webhooks:subscribe).
  const chargeOnlyClient = () => {
    const { clientId, clientSecret, scopes } = h.mock().fixtures.chargeOnlyClient;
    return h.client({ clientId, clientSecret, scopes });
  };

  it('launchTokens.create: role_slug defaults to location_cashier', async () => {
    const link = await h.client().launchTokens.create({ location_id: h.locationId() });
    expect(link).toMatchObject({ location_id: h.locationId(), role_slug: 'location_cashier' });
    expect(link.launch_url).toContain(link.launch_token);
  });

  it('launchTokens.create: insufficient_scope without svc/pos:launch; location_out_of_scope', async () => {
    const client = chargeOnlyClient();
    await expect(client.launchTokens.create({ location_id: h.locationId() })).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: 'insufficient_scope',
    });
    const other = h.mock().fixtures.partners[1]!.locations.payments;
    await expect(h.client().launchTokens.create({ location_id: other })).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: 'location_out_of_scope',
    });
  });

  it('launchTokens.exchange: provisions on first use, without a bearer token, and works once', async () => {
    const client = h.client();
    const link = await client.launchTokens.create({
      location_id: h.locationId(),
      role_slug: 'location_manager',
    });
    const session = await client.launchTokens.exchange(link.launch_token);
    expect(session).toMatchObject({
      location_id: h.locationId(),
      role_slug: 'location_manager',
      provisioned: true,
    });
    const [sent] = h.t.requests('POST', '/pos/v1/public/launch-exchange');
    expect(sent?.headers.authorization).toBeUndefined();
    await expect(client.launchTokens.exchange(link.launch_token)).rejects.toBeInstanceOf(AuthenticationError);
    // A used token is not retried nor replayed with a fresh bearer token.
    expect(h.t.requests('POST', '/pos/v1/public/launch-exchange')).toHaveLength(2);
    const later = await client.launchTokens.create({
      location_id: h.locationId(),
      role_slug: 'location_manager',
    });
    expect((await client.launchTokens.exchange(later.launch_token)).provisioned).toBe(false);
  });

  it('launchTokens.exchange: an expired token (10 minutes) is refused', async () => {
    const link = await h.client().launchTokens.create({ location_id: h.locationId() });
    h.mock().clock.advance(10 * 60_000 + 1);
    await expect(h.client().launchTokens.exchange(link.launch_token)).rejects.toMatchObject({
      code: 'token_expired',
    });
  });

  it('webhookEndpoints.create: returns the signing secret once, and deliveries verify with it', async () => {
    const partnerId = h.mock().fixtures.partners[0]!.partnerId;
    const endpoint = await h.client().webhookEndpoints.create(partnerId, {
      url: 'https://partner.example.com/hooks',
      event_kinds: ['payment.approved'],
    });
    expect(endpoint).toMatchObject({
      partner_id: partnerId,
      url: 'https://partner.example.com/hooks',
      event_kinds: ['payment.approved'],
    });
    expect(endpoint.signing_secret).toEqual(expect.any(String));
    const { paymentId } = await h.payment('approved');
    const event = h
      .mock()
      .webhooks.events()
      .find((e) => e.resource.payment_id === paymentId)!;
    const body = JSON.stringify(event);
    const { createHmac } = await import('node:crypto');
    const header = `hmac-sha256=${createHmac('sha256', endpoint.signing_secret).update(body).digest('hex')}`;
    expect(verifyWebhook(body, header, endpoint.signing_secret).event_kind).toBe('payment.approved');
  });

  it('webhookEndpoints.create: insufficient_scope without svc/webhooks:subscribe', async () => {
    const client = chargeOnlyClient();
    const partnerId = h.mock().fixtures.partners[0]!.partnerId;
    await expect(
      client.webhookEndpoints.create(partnerId, { url: 'https://partner.example.com/h' }),
    ).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: 'insufficient_scope',
    });
  });

  it('specs: the OpenAPI and AsyncAPI documents, without a token', async () => {
    const client = h.client();
    expect((await client.specs.openapi()).openapi).toMatch(/^3\.1/);
    expect((await client.specs.asyncapi()).asyncapi).toMatch(/^2\.6/);
    for (const r of h.t.requests('GET').filter((r) => r.path.includes('.well-known'))) {
      expect(r.headers.authorization).toBeUndefined();
    }
    h.mock().failNext({ method: 'GET', path: /openapi\.json$/, status: 404, error: 'spec_not_available' });
    await expect(client.specs.openapi()).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'spec_not_available',
    });
  });
});
