import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { expect, it } from 'vitest';
import {
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/index.js';
import { describeWithMock } from './mock-harness.js';

const FIXTURES = new URL('../fixtures/loopback-tls', import.meta.url).pathname;

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
    // A real receiver on loopback: what it got is what a partner's server would get. The service
    // (and the SDK) take https:// endpoints only, so it speaks TLS with a self-signed certificate for
    // 127.0.0.1 that the mock's delivery client is told to trust.
    const tls = { key: readFileSync(`${FIXTURES}/key.pem`), cert: readFileSync(`${FIXTURES}/cert.pem`) };
    const received: { body: string; signature: string | undefined }[] = [];
    const receiver = createServer(tls, async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-service-signature'] as string | undefined,
      });
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const previous: Dispatcher = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ connect: { ca: tls.cert } }));
    try {
      const partnerId = h.mock().fixtures.partners[0]!.partnerId;
      const endpoint = await h.client().webhookEndpoints.create(partnerId, {
        url,
        event_kinds: ['payment.approved'],
      });
      expect(endpoint).toMatchObject({ partner_id: partnerId, url, event_kinds: ['payment.approved'] });
      expect(endpoint.signing_secret).toEqual(expect.any(String));

      const { paymentId } = await h.payment('approved');
      await h.mock().webhooks.flush();

      expect(received).toHaveLength(1);
      const [delivery] = received;
      const event = verifyWebhook(delivery!.body, delivery!.signature, endpoint.signing_secret);
      expect(event).toMatchObject({ event_kind: 'payment.approved', resource: { payment_id: paymentId } });
      // The same bytes under another secret, or altered by one byte, are refused.
      expect(() => verifyWebhook(delivery!.body, delivery!.signature, 'whsec_not_the_secret')).toThrow(
        WebhookVerificationError,
      );
      expect(() =>
        verifyWebhook(
          delivery!.body.replace(paymentId, paymentId.toUpperCase()),
          delivery!.signature,
          endpoint.signing_secret,
        ),
      ).toThrow(WebhookVerificationError);
    } finally {
      setGlobalDispatcher(previous);
      await new Promise((resolve) => receiver.close(resolve));
    }
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
