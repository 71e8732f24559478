/**
 * The example receivers (examples/webhooks: node:http, Express, Fastify, Hono, a Next.js route and a
 * Cloudflare Worker in workerd with and without nodejs_compat), each over real loopback HTTP with
 * deliveries made by the mock service's dispatcher (signed with the endpoint's secret, retried on the
 * mock clock).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { signWebhookPayload, type WebhookEvent } from '../../src/webhooks/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { RECEIVERS, type RunningReceiver } from './receivers.js';

describe.each(RECEIVERS)('the %s example receiver', (_name, start) => {
  const loop = loopbackMock({}, { reset: false });
  const { mock } = loop;
  let client: PaymentsClient;
  let receiver: RunningReceiver;
  let secret = '';
  let endpointId = '';
  /** Every event handed over, with the payment status re-read through the client. */
  const handled: { event: WebhookEvent; statusNow: string }[] = [];
  let failNextHandOff = false;

  beforeAll(async () => {
    client = new PaymentsClient({ ...loop.clientOptions(), maxRetries: 0 });
    receiver = await start({
      async onEvent(event) {
        if (failNextHandOff) {
          failNextHandOff = false;
          throw new Error('queue unavailable');
        }
        // Spec 6.6: the event is a prompt; the payment as the API returns it now is the whole picture.
        const payment = await client.payments.get(event.resource.order_id, event.resource.payment_id);
        handled.push({ event, statusNow: payment.status });
      },
      register(url) {
        const endpoint = mock.webhooks.register({ partnerId: mock.fixtures.partners[0]!.partnerId, url });
        endpointId = endpoint.webhook_endpoint_id;
        secret = endpoint.signing_secret;
        return secret;
      },
    });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
  });

  /** Creates a payment through the client and approves it at the mock processor; returns its delivery. */
  async function approvedPaymentDelivery() {
    handled.length = 0;
    const location_id = mock.fixtures.partners[0]!.locations.payments;
    const order = await client.orders.create({ location_id, total_cents: 4_200 });
    const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: 4_200 });
    mock.processor.approve(payment.payment_id);
    await mock.webhooks.flush();
    const delivery = mock.webhooks
      .deliveries()
      .find((d) => d.webhook_endpoint_id === endpointId && d.body.includes(payment.payment_id));
    expect(delivery?.event_kind).toBe('payment.approved');
    return { delivery: delivery!, payment };
  }

  const post = (body: string, headers: Record<string, string>) =>
    fetch(receiver.url, { method: 'POST', headers, body }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { received: boolean; duplicate?: boolean; error?: string },
    }));

  it('accepts a payment.approved delivery from the mock service and hands it over once', async () => {
    const { delivery, payment } = await approvedPaymentDelivery();
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([200]);
    expect(handled).toHaveLength(1);
    expect(handled[0]!.event).toMatchObject({
      event_id: delivery.event_id,
      event_kind: 'payment.approved',
      resource: { payment_id: payment.payment_id, order_id: payment.order_id, amount_cents: 4_200 },
    });
    expect(handled[0]!.statusNow).toBe('approved');
  });

  it('answers 400 to a tampered, unsigned or wrongly signed delivery and processes none of them', async () => {
    const { delivery } = await approvedPaymentDelivery();
    const original = signWebhookPayload(delivery.body, secret);
    const tampered = delivery.body.replace('"amount_cents":4200', '"amount_cents":1');
    expect(tampered).not.toBe(delivery.body);
    const byStranger = signWebhookPayload(
      { ...JSON.parse(delivery.body), event_id: 'evt_forged' },
      'whsec_forged',
    );

    expect(await post(tampered, original.headers)).toEqual({
      status: 400,
      body: { received: false, error: 'signature_mismatch' },
    });
    expect(await post(delivery.body, { 'content-type': 'application/json' })).toEqual({
      status: 400,
      body: { received: false, error: 'missing_signature' },
    });
    expect((await post(byStranger.body, byStranger.headers)).status).toBe(400);
    expect(handled.map((h) => h.event.event_id)).toEqual([delivery.event_id]);
  });

  it('acknowledges a redelivered event_id with 200 without processing it twice', async () => {
    const { delivery } = await approvedPaymentDelivery();
    const replay = mock.webhooks.replay(delivery.delivery_id);
    await mock.webhooks.flush();
    const replayed = mock.webhooks.deliveries().find((d) => d.delivery_id === replay.delivery_id)!;
    expect(replayed.event_id).toBe(delivery.event_id);
    expect(replayed.attempts.map((a) => a.status)).toEqual([200]);

    // Concurrent copies of the same delivery (a retry racing a slow first attempt).
    const signed = signWebhookPayload(delivery.body, secret);
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(signed.body, signed.headers)));
    expect(answers).toEqual(Array(5).fill({ status: 200, body: { received: true, duplicate: true } }));
    expect(handled).toHaveLength(1);
  });

  it('answers 500 when the hand-off fails, and processes the service retry a minute later', async () => {
    failNextHandOff = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { delivery } = await approvedPaymentDelivery();
    expect(delivery.attempts.map((a) => a.status)).toEqual([500]);
    expect(handled).toHaveLength(0);

    mock.clock.advance(60_000);
    await mock.webhooks.flush();
    const retried = mock.webhooks.deliveries().find((d) => d.delivery_id === delivery.delivery_id)!;
    expect(retried.attempts.map((a) => a.status)).toEqual([500, 200]);
    expect(handled.map((h) => h.event.event_id)).toEqual([delivery.event_id]);
  });
});
