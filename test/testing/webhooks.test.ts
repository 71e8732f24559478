import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_SCHEDULE_MS } from '../../src/testing/index.js';
import { newPayment, paymentPath, settledPayment, useMock } from './helpers.js';
import { startReceiver } from './receiver.js';

const h = useMock({ webhookTimeoutMs: 300 });
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await h.mock.webhooks.flush();
  await receiver.close();
});

const register = (eventKinds?: ('payment.approved' | 'payment.voided')[]) =>
  h.mock.webhooks.register({
    partnerId: h.a().partnerId,
    url: receiver.url,
    ...(eventKinds ? { eventKinds } : {}),
  });

describe('webhook deliveries (spec section 6)', () => {
  it('delivers a signed 6.3 envelope when a payment is approved', async () => {
    const { signing_secret } = register();
    const ids = await newPayment(h);
    h.mock.processor.approve(ids.paymentId);
    await h.mock.webhooks.flush();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    const expected = createHmac('sha256', signing_secret).update(delivery!.body).digest('hex');
    expect(delivery!.headers['x-service-signature']).toBe(`hmac-sha256=${expected}`);
    expect(JSON.parse(delivery!.body)).toEqual({
      v: 1,
      event_id: expect.stringMatching(/^evt_/),
      event_kind: 'payment.approved',
      occurred_at: h.mock.clock.iso(),
      partner_id: h.a().partnerId,
      resource: {
        payment_id: ids.paymentId,
        order_id: ids.orderId,
        status: 'approved',
        amount_cents: 10_000,
        method: 'card',
        external_reference: null,
      },
    });
  });

  it('honours the event-kind filter and never delivers to another partner', async () => {
    register(['payment.voided']);
    h.mock.webhooks.register({ partnerId: h.mock.fixtures.partners[1]!.partnerId, url: receiver.url });
    const ids = await newPayment(h);
    h.mock.processor.approve(ids.paymentId);
    await h.call('POST', `${paymentPath(ids)}/void`);
    await h.mock.webhooks.flush();
    expect(receiver.received.map((r) => JSON.parse(r.body).event_kind)).toEqual(['payment.voided']);
  });

  it('retries on the mock clock at 1 min, 5 min, 30 min, 2 h, 12 h, then dead-letters; replay keeps event_id', async () => {
    receiver.control.status = 500;
    register();
    const ids = await settledPayment(h);
    await h.mock.webhooks.flush();
    expect(receiver.received).toHaveLength(1);
    for (const [attempt, delay] of RETRY_SCHEDULE_MS.slice(1).entries()) {
      h.mock.clock.advance(delay - 1);
      await h.mock.webhooks.flush();
      expect(receiver.received).toHaveLength(attempt + 1);
      h.mock.clock.advance(1);
      await h.mock.webhooks.flush();
      expect(receiver.received).toHaveLength(attempt + 2);
    }
    const [dead] = h.mock.webhooks.deadLetters();
    expect(dead).toMatchObject({ status: 'dead_letter', attempts: expect.any(Array) });
    expect(dead!.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 500]);
    h.mock.clock.advance(24 * 3_600_000);
    await h.mock.webhooks.flush();
    expect(receiver.received).toHaveLength(6);

    receiver.control.status = 204;
    const replay = h.mock.webhooks.replay(dead!.delivery_id);
    await h.mock.webhooks.flush();
    expect(receiver.received).toHaveLength(7);
    const ids7 = receiver.received.map((r) => JSON.parse(r.body).event_id);
    expect(new Set(ids7).size).toBe(1);
    expect(JSON.parse(receiver.received[6]!.body).resource.payment_id).toBe(ids.paymentId);
    expect(h.mock.webhooks.deliveries().find((d) => d.delivery_id === replay.delivery_id)?.status).toBe(
      'delivered',
    );
    expect(h.mock.webhooks.deadLetters()).toHaveLength(0);
  });

  it('never sends to a receiver off loopback: the attempt fails with NotLoopback', async () => {
    h.mock.webhooks.register({ partnerId: h.a().partnerId, url: 'https://partner.example.com/hooks' });
    h.mock.processor.approve((await newPayment(h)).paymentId);
    await h.mock.webhooks.flush();
    const [delivery] = h.mock.webhooks.deliveries();
    expect(delivery!.attempts).toEqual([
      expect.objectContaining({ ok: false, status: null, error: 'NotLoopback' }),
    ]);
    expect(delivery!.next_attempt_at).toBe(new Date(h.mock.clock.now() + 60_000).toISOString());
  });

  it('a reply slower than webhookTimeoutMs fails the attempt and is retried', async () => {
    receiver.control.delayMs = 1_000;
    register();
    const ids = await newPayment(h);
    h.mock.processor.approve(ids.paymentId);
    await h.mock.webhooks.flush();
    const [delivery] = h.mock.webhooks.deliveries();
    expect(delivery!.attempts).toEqual([expect.objectContaining({ ok: false, status: null })]);
    expect(delivery!.next_attempt_at).toBe(new Date(h.mock.clock.now() + 60_000).toISOString());
  });
});

describe('4.13 register webhook endpoint over HTTP', () => {
  const path = () => `/admin/v1/partners/${h.a().partnerId}/webhook-endpoints`;

  it('answers 201 with the signing secret (once) and the event-kind filter', async () => {
    const answer = await h.call('POST', path(), {
      body: { url: 'https://127.0.0.1:9/hooks', event_kinds: ['payment.approved', 'payment.refunded'] },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      webhook_endpoint_id: expect.any(String),
      partner_id: h.a().partnerId,
      url: 'https://127.0.0.1:9/hooks',
      event_kinds: ['payment.approved', 'payment.refunded'],
      signing_secret: expect.stringMatching(/^whsec_/),
    });
  });

  it('refuses http:// off loopback (422) and a token without svc/webhooks:subscribe (403)', async () => {
    const plain = await h.call('POST', path(), { body: { url: 'http://partner.example.com/hooks' } });
    expect([plain.status, plain.body.error]).toEqual([422, 'validation_error']);
    const token = await h.token(h.mock.fixtures.chargeOnlyClient);
    const denied = await h.call('POST', path(), { token, body: { url: 'https://127.0.0.1:9/hooks' } });
    expect(denied.body.error).toBe('insufficient_scope');
  });
});
