import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../src/testing/index.js';
import { eventKinds, read, useMock } from './helpers.js';

const h = useMock();

async function checkout(total = 2_500) {
  const created = await h.call('POST', '/pos/v1/orders', {
    body: {
      location_id: h.a().location,
      total_cents: total,
      description: 'Oil change <special>',
      return_url: 'https://shop.example.com/return?session=1',
      cancel_url: 'https://shop.example.com/cancel',
    },
  });
  const url = new URL(created.body.hosted_checkout_url);
  return {
    orderId: created.body.order_id as string,
    url: url.toString(),
    token: url.searchParams.get('token')!,
  };
}

const submit = (token: string, fields: Record<string, string>) =>
  fetch(`${h.server.baseUrl}/pos/v1/public/hosted-checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, ...fields }),
    redirect: 'manual',
  });

describe('4.11 hosted payment page', () => {
  it('GET renders an HTML card form that posts back to the mock, with no auth', async () => {
    const { url } = await checkout();
    const page = await read(await fetch(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<form method="post" action="/pos/v1/public/hosted-checkout">');
    expect(page.text).toContain('name="card_number"');
    expect(page.text).toContain('USD 25.00');
    expect(page.text).toContain('Oil change &#60;special&#62;');
  });

  it('a success card redirects 303 to return_url?order_id=...&status=paid and fires payment.approved', async () => {
    const { orderId, token } = await checkout();
    const answer = await submit(token, {
      card_number: TEST_CARDS.approve,
      expiry: '12/30',
      cvc: '123',
      action: 'pay',
    });
    expect(answer.status).toBe(303);
    const target = new URL(answer.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example.com/return');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      session: '1',
      order_id: orderId,
      status: 'paid',
    });
    expect((await h.call('GET', `/pos/v1/orders/${orderId}`)).body.status).toBe('paid');
    expect(eventKinds(h)).toEqual(['payment.approved']);
  });

  it('a second visit after payment is 410 Gone', async () => {
    const { url, token } = await checkout();
    await submit(token, { card_number: TEST_CARDS.approve, action: 'pay' });
    expect((await fetch(url)).status).toBe(410);
    expect((await submit(token, { card_number: TEST_CARDS.approve, action: 'pay' })).status).toBe(410);
  });

  it('a declining card keeps the customer on the page with a message, and a retry can succeed', async () => {
    const { orderId, token } = await checkout();
    const declined = await read(await submit(token, { card_number: TEST_CARDS.decline, action: 'pay' }));
    expect(declined.status).toBe(402);
    expect(declined.text).toContain('Your card was declined');
    expect(declined.text).toContain('<form');
    const order = await h.call('GET', `/pos/v1/orders/${orderId}`);
    expect(order.body.payments.map((p: { status: string }) => p.status)).toEqual(['declined']);
    expect((await submit(token, { card_number: TEST_CARDS.approve, action: 'pay' })).status).toBe(303);
  });

  it('a processing-error card and a bad card number stay on the page; no event fires', async () => {
    const { token } = await checkout();
    expect((await submit(token, { card_number: TEST_CARDS.processingError, action: 'pay' })).status).toBe(
      502,
    );
    expect((await submit(token, { card_number: '4242424242424241', action: 'pay' })).status).toBe(422);
    expect(eventKinds(h)).toEqual([]);
  });

  it('refuses (409) while an API payment covers the order, and takes no 0-cent payment', async () => {
    const { orderId, token } = await checkout();
    await h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
      body: { method: 'card', amount_cents: 2_500 },
    });
    const answer = await submit(token, { card_number: TEST_CARDS.approve, action: 'pay' });
    expect(answer.status).toBe(409);
    const order = await h.call('GET', `/pos/v1/orders/${orderId}`);
    expect(order.body.payments.map((p: { amount_cents: number }) => p.amount_cents)).toEqual([2_500]);
    expect(eventKinds(h)).toEqual([]);
  });

  it('cancel redirects 303 to cancel_url', async () => {
    const { token } = await checkout();
    const answer = await submit(token, { action: 'cancel' });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, 'https://shop.example.com/cancel']);
  });

  it('the URL expires after 5 minutes on the mock clock (410)', async () => {
    const { url } = await checkout();
    h.mock.clock.advance(5 * 60_000 - 1_000);
    expect((await fetch(url)).status).toBe(200);
    h.mock.clock.advance(1_000);
    expect((await fetch(url)).status).toBe(410);
  });

  it('a tampered token is 400 and the page never echoes the token', async () => {
    const { token } = await checkout();
    const tampered = `${token.slice(0, -2)}xx`;
    const page = await read(
      await fetch(`${h.server.baseUrl}/pos/v1/public/hosted-checkout?token=${tampered}`),
    );
    expect(page.status).toBe(400);
    expect(page.text).not.toContain(tampered);
  });
});

describe('4.12 launch links', () => {
  const create = (body: Record<string, unknown>, token?: string) =>
    h.call('POST', '/pos/v1/launch-tokens', { body, ...(token ? { token } : {}) });
  const exchange = (launch_token: string) =>
    h.call('POST', '/pos/v1/public/launch-exchange', { token: null, body: { launch_token } });

  it('creates a token with role_slug defaulting to location_cashier, valid 10 minutes', async () => {
    const answer = await create({ location_id: h.a().location });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      location_id: h.a().location,
      role_slug: 'location_cashier',
      launch_token: expect.stringMatching(/^lt_/),
    });
    expect(answer.body.launch_url).toContain(`${h.server.baseUrl}/pos/v1/public/launch?launch_token=`);
    expect(Date.parse(answer.body.expires_at) - h.mock.clock.now()).toBe(10 * 60_000);
  });

  it('requires location_id (400) and the svc/pos:launch scope (403)', async () => {
    expect((await create({})).body.error).toBe('invalid_request');
    const token = await h.token(h.mock.fixtures.chargeOnlyClient);
    expect((await create({ location_id: h.a().location }, token)).body.error).toBe('insufficient_scope');
  });

  it('exchanges once, provisioning the user on first use only', async () => {
    const first = await create({
      location_id: h.a().location,
      role_slug: 'location_manager',
      user_ref: 'u-1',
    });
    const session = await exchange(first.body.launch_token);
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({
      provisioned: true,
      role_slug: 'location_manager',
      location_id: h.a().location,
    });
    expect((await exchange(first.body.launch_token)).body.error).toBe('invalid_token');
    const second = await create({ location_id: h.a().location, user_ref: 'u-1' });
    const again = await exchange(second.body.launch_token);
    expect(again.body).toMatchObject({
      provisioned: false,
      user_id: session.body.user_id,
      role_slug: 'location_manager',
    });
  });

  it('an exchange after 10 minutes is 401 token_expired', async () => {
    const link = await create({ location_id: h.a().location });
    h.mock.clock.advance(10 * 60_000);
    const answer = await exchange(link.body.launch_token);
    expect([answer.status, answer.body.error]).toEqual([401, 'token_expired']);
  });
});
