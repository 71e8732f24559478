/**
 * What a partner's first test meets (issue 41, item 2): `autoProcess: true` approves a payment that
 * `awaitPaymentResult` waits for without the test touching the clock, and a wait that does time out
 * against the mock says how to move the mock on, not "investigate with support".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentsClient, ResultTimeoutError } from '../../src/index.js';
import type { MockServiceOptions } from '../../src/testing/index.js';
import { type ServedMock, serveMock } from '../helpers/loopback-mock.js';

let open: ServedMock | undefined;
afterEach(async () => {
  await open?.stop();
  open = undefined;
});

async function charge(options: MockServiceOptions) {
  open = await serveMock(options);
  const { mock } = open;
  const client = new PaymentsClient(open.clientOptions());
  const order = await client.orders.create({
    location_id: mock.fixtures.partners[0]!.locations.payments,
    total_cents: 500,
  });
  const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: 500 });
  const wait = { intervalMs: 10, maxWaitMs: 400 };
  return { mock, client, order, payment, wait };
}

describe('demo mode in a test', () => {
  it('autoProcess alone approves the payment awaitPaymentResult waits for (its clock follows real time)', async () => {
    const { client, order, payment, wait } = await charge({ autoProcess: { approveAfterMs: 20 } });
    const result = await client.awaitPaymentResult(order.order_id, payment.payment_id, wait);
    expect(result.status).toBe('approved');
  });

  it('a manual clock asked for keeps demo outcomes until mock.clock.advance (the control)', async () => {
    const { mock, client, order, payment, wait } = await charge({
      autoProcess: { approveAfterMs: 20 },
      clock: { realTime: false },
    });
    await expect(client.awaitPaymentResult(order.order_id, payment.payment_id, wait)).rejects.toThrow(
      ResultTimeoutError,
    );
    mock.clock.advance(20);
    expect((await client.payments.get(order.order_id, payment.payment_id)).status).toBe('approved');
  });
});

describe('ResultTimeoutError against the mock', () => {
  it('says how to move the mock on, and nothing of support', async () => {
    const { client, order, payment, wait } = await charge({});
    const error = await client.awaitPaymentResult(order.order_id, payment.payment_id, wait).catch((e) => e);
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(error.message).toContain(`mock.processor.approve('${payment.payment_id}')`);
    expect(error.message).toContain('autoProcess');
    expect(error.message).not.toMatch(/support/);
  });

  it('the control: a client given only an access token (no mock client id) keeps the service advice', async () => {
    const { mock, order, payment, wait } = await charge({});
    const { clientId, clientSecret, authUrl, baseUrl } = mock.clientOptions(open!.server.baseUrl);
    const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const minted = await fetch(`${authUrl}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams(form),
    });
    const { access_token } = (await minted.json()) as { access_token: string };
    const other = new PaymentsClient({ baseUrl, accessToken: access_token });
    const error = await other.awaitPaymentResult(order.order_id, payment.payment_id, wait).catch((e) => e);
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(error.message).toMatch(/investigated with support/);
    expect(error.message).not.toContain('mock.processor');
  });
});
