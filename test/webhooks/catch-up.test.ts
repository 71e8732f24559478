// handler.catchUp against the mock over loopback (api.md 23): webhooks lost to dead letters are
// caught up once per transition, their replays answered as duplicates, and the reverse order; refunds,
// voids and the hosted checkout page; and the planted control (de-duplication by event_id alone).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import type { DedupeStore } from '../../src/core/stores/dedupe-store.js';
import { MemoryDedupeStore } from '../../src/core/stores/dedupe-store.js';
import { DEFAULT_SCOPES } from '../../src/index.js';
import { RETRY_SCHEDULE_MS } from '../../src/testing/index.js';
import {
  createWebhookHandler,
  isCatchUpEvent,
  signWebhookPayload,
  type WebhookHandler,
} from '../../src/webhooks/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { eventIdOnly, runCounter, startCatchUpReceiver, transitionName } from './catch-up-harness.js';

const served = loopbackMock({ paymentTtlMs: 30 * 24 * 3_600_000 });
const { mock } = served;
const partner = () => mock.fixtures.partners[0]!;

let receiver: Awaited<ReturnType<typeof startCatchUpReceiver>>;
let handler: WebhookHandler;
let secret: string;
beforeEach(async () => {
  receiver = await startCatchUpReceiver(() => handler);
  secret = mock.webhooks.register({ partnerId: partner().partnerId, url: receiver.url }).signing_secret;
});
afterEach(() => receiver.close());

function newClient() {
  return new PaymentsClient({
    ...served.clientOptions(),
    maxRetries: 0,
    scopes: [...DEFAULT_SCOPES, 'svc/payments:refund'],
  });
}

/** A handler over `dedupe` counting each transition's runs. */
function counted(dedupe: DedupeStore = new MemoryDedupeStore()) {
  const counter = runCounter();
  handler = createWebhookHandler({
    secret: () => secret,
    dedupe,
    on: {
      'payment.approved': counter.record,
      'payment.voided': counter.record,
      'payment.refunded': counter.record,
      'payment.cancelled': counter.record,
      'payment.expired': counter.record,
    },
    onError: () => {},
  });
  return counter;
}

/** Runs the retry schedule out on the mock clock: every failing delivery ends a dead letter. */
async function exhaustRetries() {
  await mock.webhooks.flush();
  for (const delay of RETRY_SCHEDULE_MS.slice(1)) {
    mock.clock.advance(delay);
    await mock.webhooks.flush();
  }
}

/** Replays every dead letter through the control API; the handler's answers to them. */
async function replayDeadLetters() {
  const dead = mock.webhooks.deadLetters();
  const before = receiver.answers.length;
  for (const d of dead) {
    const replayed = await fetch(`${served.url}/_mock/v1/deliveries/${d.delivery_id}/replay`, {
      method: 'POST',
    });
    expect(replayed.status).toBe(201);
  }
  await mock.webhooks.flush();
  return { dead, answers: receiver.answers.slice(before) };
}

/** Ten charges: five approved, three declined, two left pending. */
async function tenCharges(client: PaymentsClient) {
  const payments: string[] = [];
  for (let i = 0; i < 10; i++) {
    const { payment } = await client.charge({
      idempotencyKey: `catch-up-${i}-${Date.now()}`,
      order: {
        location_id: partner().locations.payments,
        total_cents: 1_000 + i,
        external_reference: `INV-${i}`,
      },
    });
    payments.push(payment.payment_id);
  }
  payments.slice(0, 5).forEach((id) => {
    mock.processor.approve(id);
  });
  payments.slice(5, 8).forEach((id) => {
    mock.processor.decline(id);
  });
  return { approved: payments.slice(0, 5), declined: payments.slice(5, 8), pending: payments.slice(8) };
}

/** The dead-letter scenario; with the planted control the same steps run transitions twice. */
async function deadLetterScenario(dedupe: DedupeStore) {
  const counter = counted(dedupe);
  const client = newClient();
  receiver.state.down = true;
  const ids = await tenCharges(client);
  await exhaustRetries();
  const dead = mock.webhooks.deadLetters();
  receiver.state.down = false;

  const first = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
  const second = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
  const replays = await replayDeadLetters();
  return { counter, client, ids, dead, first, second, replays };
}

describe('handler.catchUp over loopback: webhooks lost to dead letters', () => {
  it('runs each final transition once, reports the pending, and answers the replayed dead letters as duplicates', async () => {
    const { counter, client, ids, dead, first, second, replays } = await deadLetterScenario(
      new MemoryDedupeStore(),
    );
    // The receiver was down through all six attempts: the five approvals are dead letters.
    expect(dead).toHaveLength(5);
    expect(dead.every((d) => d.attempts.length === 6)).toBe(true);

    expect(first).toMatchObject({ checked: 10, delivered: 5, pending: 2, failed: 0 });
    expect([...counter.runs.keys()].sort()).toEqual(ids.approved.map((p) => `payment.approved ${p}`).sort());
    expect(counter.twice()).toEqual([]);
    // The event a webhook would have carried: kind, envelope and resource; marked as caught up.
    for (const d of dead) {
      const lost = JSON.parse(d.body);
      const caught = counter.events.find((e) => e.resource.payment_id === lost.resource.payment_id)!;
      expect(caught).toMatchObject({
        v: 1,
        event_kind: lost.event_kind,
        partner_id: lost.partner_id,
        resource: lost.resource,
      });
      expect(Object.keys(caught.resource).sort()).toEqual(Object.keys(lost.resource).sort());
      expect(caught.event_id).toBe(`catchup:payment.approved:${lost.resource.payment_id}`);
      expect(isCatchUpEvent(caught)).toBe(true);
      expect(isCatchUpEvent(lost)).toBe(false);
    }
    expect(JSON.stringify(counter.events)).not.toContain(secret);

    // A second pass runs nothing; it still sees the two pending payments.
    expect(second).toMatchObject({ checked: 2, delivered: 0, pending: 2, failed: 0 });
    // Every replayed dead letter answered 200 as a duplicate; no callback ran twice.
    expect(replays.answers).toHaveLength(5);
    expect(replays.answers.every((a) => a.status === 200 && a.body.duplicate === true)).toBe(true);
    expect(counter.twice()).toEqual([]);
    expect(counter.runs.size).toBe(5);

    // The reverse order: the webhook first (the receiver is up), then a pass runs nothing.
    ids.pending.forEach((id) => {
      mock.processor.approve(id);
    });
    await mock.webhooks.flush();
    expect(receiver.answers.slice(-2).every((a) => a.status === 200 && a.body.duplicate === undefined)).toBe(
      true,
    );
    expect(counter.runs.size).toBe(7);
    const third = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
    expect(third).toMatchObject({ delivered: 0, pending: 0, failed: 0 });
    expect(counter.twice()).toEqual([]);
    // And now nothing is left to read: every order is final.
    expect(await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId })).toMatchObject({
      checked: 0,
      delivered: 0,
    });
  });

  it('the planted control: de-duplicating by event_id alone runs every replayed transition twice', async () => {
    const { counter, replays } = await deadLetterScenario(eventIdOnly(new MemoryDedupeStore()));
    expect(replays.answers.some((a) => a.body.duplicate === true)).toBe(false);
    expect(counter.twice()).toHaveLength(5);
  });

  it('a callback that throws leaves its transition for the next pass, which runs it once', async () => {
    const counter = counted();
    const client = newClient();
    receiver.state.down = true;
    const ids = await tenCharges(client);
    await exhaustRetries();
    let failing = true;
    const record = counter.record;
    handler = createWebhookHandler({
      secret: () => secret,
      on: {
        'payment.approved': (event) => {
          if (failing && event.resource.payment_id === ids.approved[0]) throw new Error('queue down');
          record(event);
        },
      },
    });
    const first = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
    expect(first).toMatchObject({ delivered: 4, failed: 1 });
    expect(first.errors[0]?.event.resource.payment_id).toBe(ids.approved[0]);
    failing = false;
    const second = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
    expect(second).toMatchObject({ delivered: 1, failed: 0 });
    expect(counter.runs.get(`payment.approved ${ids.approved[0]}`)).toBe(1);
    expect(counter.twice()).toEqual([]);
  });

  it('a webhook that arrives while a pass runs its transition is answered 500 (retried), then a duplicate', async () => {
    const client = newClient();
    const { payment } = await client.charge({
      idempotencyKey: `racing-${Date.now()}`,
      order: { location_id: partner().locations.payments, total_cents: 4_000 },
    });
    mock.processor.approve(payment.payment_id);
    const lost = mock.webhooks.events().findLast((e) => e.resource.payment_id === payment.payment_id)!;
    let release: () => void = () => {};
    const entered = new Promise<void>((resolve) => {
      handler = createWebhookHandler({
        secret,
        onError: () => {},
        on: {
          'payment.approved': () =>
            new Promise<void>((done) => {
              release = done;
              resolve();
            }),
        },
      });
    });
    const pass = handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
    await entered;
    const deliver = () => {
      const { body, headers } = signWebhookPayload(lost, secret);
      return handler.fetch(new Request('http://127.0.0.1/hooks', { method: 'POST', headers, body }));
    };
    expect((await deliver()).status).toBe(500); // the service retries it
    release();
    const result = await pass;
    expect(result).toMatchObject({ delivered: 1, failed: 0 });
    expect(await (await deliver()).json()).toEqual({ received: true, duplicate: true });
    // Nothing of the client's credentials in what the pass gives back.
    expect(JSON.stringify(result)).not.toContain(served.clientOptions().clientSecret);
  });

  it('respects olderThanMs, limit and signal', async () => {
    counted();
    const client = newClient();
    receiver.state.down = true;
    await tenCharges(client);
    expect(await handler.catchUp(client)).toMatchObject({ checked: 0, delivered: 0 }); // all younger than 60 s
    expect(await handler.catchUp(client, { olderThanMs: 0, limit: 3 })).toMatchObject({
      checked: 3,
      delivered: 3,
    });
    await expect(handler.catchUp(client, { olderThanMs: 0, signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe('handler.catchUp over loopback: refunds, voids and the hosted checkout page', () => {
  it('catches up two partial refunds of one payment, a void and a hosted-checkout payment once each', async () => {
    const counter = counted();
    const client = newClient();
    receiver.state.down = true;
    const location = partner().locations.payments;
    // Approved, settled, and refunded in two parts.
    const { order, payment } = await client.charge({
      idempotencyKey: `refunded-${Date.now()}`,
      order: { location_id: location, total_cents: 5_000 },
    });
    mock.processor.approve(payment.payment_id);
    mock.processor.settle(payment.payment_id);
    const refunds = [];
    for (const part of [1_000, 1_500]) {
      const refund = await client.refunds.create(
        order.order_id,
        payment.payment_id,
        { amount_cents: part },
        { idempotencyKey: `refund-${part}-${Date.now()}` },
      );
      mock.processor.confirmRefund(refund.refund_id);
      refunds.push(refund.refund_id);
    }
    // A pending payment voided.
    const voided = await client.charge({
      idempotencyKey: `voided-${Date.now()}`,
      order: { location_id: location, total_cents: 2_000 },
    });
    await client.payments.void(voided.order.order_id, voided.payment.payment_id);
    // A payment made on the hosted checkout page of an order the SDK created under a key.
    const hosted = await client.orders.create(
      {
        location_id: location,
        total_cents: 3_000,
        return_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
      },
      { idempotencyKey: `hosted-${Date.now()}` },
    );
    const hostedPayment = await payOnHostedPage(hosted.hosted_checkout_url!);
    await exhaustRetries();

    receiver.state.down = false;
    const first = await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId });
    expect(first).toMatchObject({ delivered: 5, pending: 0, failed: 0 });
    expect([...counter.runs.keys()].sort()).toEqual(
      [
        `payment.approved ${payment.payment_id}`,
        ...refunds.map((r) => `payment.refunded ${payment.payment_id} ${r}`),
        `payment.voided ${voided.payment.payment_id}`,
        `payment.approved ${hostedPayment}`,
      ].sort(),
    );
    const refundEvents = counter.events.filter((e) => e.event_kind === 'payment.refunded');
    expect(
      refundEvents.map((e) => (e.resource as { refund_amount_cents: number }).refund_amount_cents).sort(),
    ).toEqual([1_000, 1_500]);
    expect(await handler.catchUp(client, { olderThanMs: 0, partnerId: partner().partnerId })).toMatchObject({
      delivered: 0,
      failed: 0,
    });

    // The lost webhooks, replayed: each a duplicate, no callback twice.
    const { answers } = await replayDeadLetters();
    const handled = answers.filter((a) => a.body.duplicate === true);
    expect(handled).toHaveLength(5);
    expect(counter.twice()).toEqual([]);
    expect(counter.events.every(isCatchUpEvent)).toBe(true);
    expect(counter.events.map(transitionName)).toHaveLength(5);
  });
});

/** Pays an order on the mock's hosted page with the approving test card; the payment's id. */
async function payOnHostedPage(url: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const formAction = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&');
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1];
  if (!formAction || !token) throw new Error('the hosted page has no card form');
  await fetch(new URL(formAction, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token,
      card_number: '4242424242424242',
      expiry: '12/30',
      cvc: '123',
      action: 'pay',
    }),
    redirect: 'manual',
  });
  const approved = mock.webhooks.events().findLast((e) => e.event_kind === 'payment.approved');
  return String(approved!.resource.payment_id);
}
