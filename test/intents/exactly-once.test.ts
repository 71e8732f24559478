// Exactly-once payments and refunds (api.md 17) against the mock over loopback: keys, conflicts,
// reconciliation of lost answers, racing instances, a crashed holder, recover(), and refunds
// settled by their webhook event. Each "exactly one" check has a positive control below.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  IdempotencyConflictError,
  type IntentRecord,
  type IntentStore,
  MemoryIntentStore,
  PaymentsClient,
  type PaymentsClientOptions,
  type ReconcileEvent,
  SCOPES,
} from '../../src/index.js';
import { createWebhookHandler, webhookSignatureHeader } from '../../src/webhooks/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';

/** Payment and refund POSTs that reached the mock. */
let creates = 0;
/** Holds the next create POST until released (two instances racing on one key). */
let gate: Promise<void> | undefined;

const loop = loopbackMock({
  front: async (request, mock) => {
    if (request.method === 'POST' && /\/(payments|refunds)$/.test(new URL(request.url).pathname)) {
      creates++;
      if (gate) await gate;
    }
    return mock.fetch(request).catch(() => Response.error());
  },
});
const { mock } = loop;
beforeEach(() => {
  creates = 0;
  gate = undefined;
});

const partner = () => mock.fixtures.partners[0]!;
const paymentsOf = (orderId: string) => mock.snapshot().payments.filter((p) => p.order_id === orderId);
const refundsOf = (paymentId: string) => mock.snapshot().refunds.filter((r) => r.payment_id === paymentId);
const PAYMENTS = { method: 'POST', path: /\/payments$/ } as const;
const REFUNDS = { method: 'POST', path: /\/refunds$/ } as const;

function client(options: PaymentsClientOptions = {}): PaymentsClient {
  return new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    settleMs: 50,
    ...options,
  });
}

async function order(c: PaymentsClient, total = 5_000): Promise<string> {
  return (await c.orders.create({ location_id: partner().locations.payments, total_cents: total })).order_id;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('the same key', () => {
  it('returns the same payment and sends nothing the second time', async () => {
    const c = client();
    const orderId = await order(c);
    const first = await c.payments.create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'k1' },
    );
    const again = await c.payments.create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'k1' },
    );
    expect(again.payment_id).toBe(first.payment_id);
    expect(creates).toBe(1);
    expect(paymentsOf(orderId)).toHaveLength(1);
  });

  it('with other params is an IdempotencyConflictError before anything is sent', async () => {
    const c = client();
    const orderId = await order(c);
    await c.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'k2' });
    const error = await failure(
      c.payments.create(orderId, { method: 'card', amount_cents: 1_200 }, { idempotencyKey: 'k2' }),
    );
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error).toMatchObject({ code: 'idempotency_conflict', idempotencyKey: 'k2' });
    expect(creates).toBe(1);
  });

  it('from two instances at the same moment: one sends, the other gets its payment', async () => {
    const intentStore = new MemoryIntentStore();
    const a = client({ intentStore });
    const b = client({ intentStore });
    const orderId = await order(a);
    let release = () => {};
    gate = new Promise((resolve) => {
      release = resolve;
    });
    const params = { method: 'card', amount_cents: 1_000 } as const;
    const first = a.payments.create(orderId, params, { idempotencyKey: 'race' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = b.payments.create(orderId, params, { idempotencyKey: 'race' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const [p1, p2] = await Promise.all([first, second]);
    expect(p2.payment_id).toBe(p1.payment_id);
    expect(creates).toBe(1);
    expect(paymentsOf(orderId)).toHaveLength(1);
  });

  it('rejects a key that is empty or longer than 255 characters, nothing sent', async () => {
    const c = client();
    const orderId = await order(c);
    for (const key of ['', 'x'.repeat(256)]) {
      const error = await failure(
        c.payments.create(orderId, { method: 'card', amount_cents: 100 }, { idempotencyKey: key }),
      );
      expect(error).toMatchObject({ name: 'RequestValidationError' });
    }
    expect(creates).toBe(0);
  });
});

describe("the in-memory store's synchronous path", () => {
  // The runner begins and finishes a new key on the SDK's own MemoryIntentStore without awaiting it;
  // a subclass that overrides begin or put is a store of its own, and goes through them.
  class CountingStore extends MemoryIntentStore {
    begins = 0;
    puts = 0;
    override begin(...args: Parameters<MemoryIntentStore['begin']>) {
      this.begins++;
      return super.begin(...args);
    }
    override put(...args: Parameters<MemoryIntentStore['put']>) {
      this.puts++;
      return super.put(...args);
    }
  }

  it("uses a subclass's begin and put, and keeps the guarantee", async () => {
    const intentStore = new CountingStore();
    const c = client({ intentStore });
    const orderId = await order(c);
    const params = { method: 'card', amount_cents: 700 } as const;
    const first = await c.payments.create(orderId, params, { idempotencyKey: 'sub-1' });
    const again = await c.payments.create(orderId, params, { idempotencyKey: 'sub-1' });
    expect(again.payment_id).toBe(first.payment_id);
    expect(intentStore.begins).toBe(2);
    expect(intentStore.puts).toBe(1);
    expect(creates).toBe(1);
  });

  it('records what a new key produced, as the store hands it out', async () => {
    const intentStore = new MemoryIntentStore();
    const c = client({ intentStore });
    const orderId = await order(c);
    const payment = await c.payments.create(
      orderId,
      { method: 'card', amount_cents: 800 },
      { idempotencyKey: 'sync-1' },
    );
    expect(await intentStore.get('sync-1')).toMatchObject({
      state: 'landed',
      resultId: payment.payment_id,
      sends: 1,
      result: { payment_id: payment.payment_id },
    });
    // Not leased any more: another client takes the key at once and gets the payment back.
    const other = client({ intentStore, deadlineMs: 100 });
    expect(
      (
        await other.payments.create(
          orderId,
          { method: 'card', amount_cents: 800 },
          { idempotencyKey: 'sync-1' },
        )
      ).payment_id,
    ).toBe(payment.payment_id);
    expect(creates).toBe(1);
  });

  it('refuses a bad reconcile option before anything is sent', async () => {
    const c = client();
    const orderId = await order(c);
    const error = await failure(
      c.payments.create(
        orderId,
        { method: 'card', amount_cents: 100 },
        {
          idempotencyKey: 'bad-mode',
          reconcile: 'sometimes' as 'auto',
        },
      ),
    );
    expect(error).toMatchObject({ name: 'ConfigurationError' });
    expect(creates).toBe(0);
  });
});

describe('a lost answer is reconciled with the order', () => {
  it.each([
    ['a reset after the payment was made', { network: true }],
    ['a 500 after the payment was made', { status: 500, times: 3 }],
    ['a truncated 201', { body: 'truncated' }],
  ] as const)('%s: the payment is adopted, one payment', async (_name, fault) => {
    const events: ReconcileEvent[] = [];
    const c = client();
    c.on('reconcile', (e) => events.push(e));
    const orderId = await order(c);
    mock.failNext({ ...PAYMENTS, phase: 'after', ...fault });
    const payment = await c.payments.create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'lost' },
    );
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    expect(payment).toMatchObject({ order_id: orderId, amount_cents: 1_000, status: 'pending' });
    expect(events).toEqual([
      expect.objectContaining({
        idempotencyKey: 'lost',
        kind: 'payment',
        outcome: 'landed',
        paymentId: payment.payment_id,
      }),
    ]);
    expect(creates).toBe(1);
  });

  it.each([
    ['a reset before the service processed it', { network: true }],
    ['a 503 before the service processed it', { status: 503 }],
  ] as const)('%s: not landed, sent again under the key: one payment', async (_name, fault) => {
    const events: ReconcileEvent[] = [];
    const c = client();
    c.on('reconcile', (e) => events.push(e));
    const orderId = await order(c);
    mock.failNext({ ...PAYMENTS, phase: 'before', ...fault });
    const payment = await c.payments.create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'again' },
    );
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    expect(events.map((e) => e.outcome)).toEqual(['not_landed']);
    expect(creates).toBe(2);
  });

  // On the hot path the core settles the intent inside the call; around a middleware or an `end`
  // listener it settles it as a caller would. Either way: one payment, adopted or replayed.
  it.each([
    ['nothing around the call', () => ({})],
    ['a middleware', () => ({ middleware: [(_call: unknown, next: () => Promise<unknown>) => next()] })],
    ['an end listener', () => ({ listen: true })],
  ] as const)(
    'with %s: a lost answer is adopted and the key then replays it, one payment',
    async (_name, setup) => {
      const { listen, ...options } = setup() as { listen?: boolean } & PaymentsClientOptions;
      const c = client(options);
      const ends: unknown[] = [];
      if (listen) c.on('end', (e) => ends.push(e));
      const orderId = await order(c);
      const params = { method: 'card', amount_cents: 700 } as const;
      const first = await c.payments.create(orderId, params, { idempotencyKey: 'hot-ok' });
      mock.failNext({ ...PAYMENTS, phase: 'after', status: 500, times: 3 });
      const adopted = await c.payments.create(
        orderId,
        { ...params, amount_cents: 800 },
        { idempotencyKey: 'hot-lost' },
      );
      // Both keys replay what they produced, with nothing sent.
      const sent = creates;
      expect(await c.payments.create(orderId, params, { idempotencyKey: 'hot-ok' })).toEqual(first);
      expect(
        await c.payments.create(orderId, { ...params, amount_cents: 800 }, { idempotencyKey: 'hot-lost' }),
      ).toEqual(adopted);
      expect(creates).toBe(sent);
      expect(
        paymentsOf(orderId)
          .map((p) => p.payment_id)
          .sort(),
      ).toEqual([first.payment_id, adopted.payment_id].sort());
      if (listen) expect(ends.length).toBeGreaterThan(0);
    },
  );

  it('two payments that could be it: outcomeUnknown with both candidates, nothing sent again', async () => {
    const c = client();
    const orderId = await order(c);
    // Another system (no shared intent store) charged the same amount a moment before.
    const other = await client().payments.create(orderId, { method: 'card', amount_cents: 1_000 });
    mock.failNext({ ...PAYMENTS, phase: 'after', network: true });
    const error = await failure(
      c.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'amb' }),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'amb' });
    const candidates = (error as APIConnectionError).candidates ?? [];
    expect(candidates.sort()).toEqual(
      paymentsOf(orderId)
        .map((p) => p.payment_id)
        .sort(),
    );
    expect(candidates).toContain(other.payment_id);
    expect(paymentsOf(orderId)).toHaveLength(2);
  });

  it("reconcile: 'off' keeps 0.2.0's outcomeUnknown; a rerun with the key then adopts the payment", async () => {
    const c = client({ reconcile: 'off' });
    const orderId = await order(c);
    mock.failNext({ ...PAYMENTS, phase: 'after', network: true });
    const params = { method: 'card', amount_cents: 1_000 } as const;
    const error = await failure(c.payments.create(orderId, params, { idempotencyKey: 'off' }));
    expect(error).toMatchObject({ outcomeUnknown: true });
    const payment = await c.payments.create(orderId, params, { idempotencyKey: 'off', reconcile: 'auto' });
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    expect(creates).toBe(1);
  });
});

/** A record as a process leaves it when it dies after sending (lease lapsed). */
function orphan(store: IntentStore, record: Partial<IntentRecord> & Pick<IntentRecord, 'key' | 'orderId'>) {
  return store.begin(
    {
      kind: 'payment',
      fingerprint: '',
      amountCents: 1_000,
      method: 'card',
      state: 'open',
      sends: 1,
      createdAt: 0,
      updatedAt: 0,
      ...record,
    },
    'dead-process',
    1,
  );
}

describe('after a crash', () => {
  it('a rerun of the same charge with the same key returns the payment from before', async () => {
    const intentStore = new MemoryIntentStore();
    const before = client({ intentStore, reconcile: 'off' });
    const orderId = await order(before);
    mock.failNext({ ...PAYMENTS, phase: 'after', network: true }); // the process "dies" with the answer
    await failure(
      before.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'crash' }),
    );
    const after = client({ intentStore });
    const payment = await after.payments.create(
      orderId,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'crash' },
    );
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    expect(creates).toBe(1);
  });

  it('recover() reports landed, not landed and never-sent keys, and a not-landed key then charges once', async () => {
    const intentStore = new MemoryIntentStore();
    const c = client({ intentStore });
    const orderId = await order(c);
    const landed = await client().payments.create(orderId, { method: 'card', amount_cents: 1_000 });
    const sentAt = Date.parse(landed.created_at) - 10;
    await orphan(intentStore, { key: 'r-landed', orderId, firstSentAt: sentAt, lastSentAt: sentAt });
    await orphan(intentStore, {
      key: 'r-lost',
      orderId,
      amountCents: 700,
      firstSentAt: sentAt,
      lastSentAt: sentAt,
    });
    await orphan(intentStore, { key: 'r-never', orderId, amountCents: 300, sends: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const report = await c.recover({ olderThanMs: 0 });
    expect(report).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          idempotencyKey: 'r-landed',
          outcome: 'landed',
          paymentId: landed.payment_id,
        }),
        expect.objectContaining({ idempotencyKey: 'r-lost', outcome: 'not_landed' }),
        expect.objectContaining({ idempotencyKey: 'r-never', outcome: 'not_landed' }),
      ]),
    );
    expect((await intentStore.get('r-landed'))?.resultId).toBe(landed.payment_id);
    expect(await c.recover({ olderThanMs: 0 })).toEqual([]);
  });
});

describe('refunds', () => {
  async function settled(c: PaymentsClient) {
    const orderId = await order(c, 3_000);
    const payment = await c.payments.create(orderId, { method: 'card', amount_cents: 3_000 });
    mock.processor.approve(payment.payment_id);
    mock.processor.settle(payment.payment_id);
    return { orderId, paymentId: payment.payment_id };
  }

  it('the same key returns the same refund; a lost answer stays unknown until its event, never a second refund', async () => {
    const intentStore = new MemoryIntentStore();
    const c = client({ intentStore });
    const { orderId, paymentId } = await settled(c);
    const params = { amount_cents: 1_000, reason: 'customer_request' } as const;
    const r1 = await c.refunds.create(orderId, paymentId, params, { idempotencyKey: 'rf1' });
    expect((await c.refunds.create(orderId, paymentId, params, { idempotencyKey: 'rf1' })).refund_id).toBe(
      r1.refund_id,
    );

    creates = 0;
    mock.failNext({ ...REFUNDS, phase: 'after', network: true });
    const lost = await failure(c.refunds.create(orderId, paymentId, params, { idempotencyKey: 'rf2' }));
    expect(lost).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'rf2' });
    expect((lost as Error).message).toContain('payment.refunded');
    const again = await failure(c.refunds.create(orderId, paymentId, params, { idempotencyKey: 'rf2' }));
    expect(again).toMatchObject({ outcomeUnknown: true });
    expect(creates).toBe(1);
    expect(refundsOf(paymentId)).toHaveLength(2);

    // The processor confirms; the service delivers payment.refunded to the partner's handler.
    const secret = 'whsec_test_exactly_once';
    const handler = createWebhookHandler({ secret, on: {}, intentStore });
    const lostRefund = refundsOf(paymentId).find((r) => r.refund_id !== r1.refund_id)!;
    mock.processor.confirmRefund(lostRefund.refund_id);
    const event = mock.webhooks
      .events()
      .find((e) => (e.resource as { refund_id?: string }).refund_id === lostRefund.refund_id)!;
    const body = JSON.stringify(event);
    const answer = await handler.fetch(
      new Request('http://127.0.0.1/hooks', {
        method: 'POST',
        body,
        headers: { 'x-service-signature': webhookSignatureHeader(body, secret) },
      }),
    );
    expect(answer.status).toBe(200);
    const refund = await c.refunds.create(orderId, paymentId, params, { idempotencyKey: 'rf2' });
    expect(refund.refund_id).toBe(lostRefund.refund_id);
    expect(creates).toBe(1);
    expect(refundsOf(paymentId)).toHaveLength(2);
  });
});

describe('positive controls: the checks above catch a store that forgets', () => {
  /** A store that loses every record: the defect exactly-once exists to prevent. */
  class ForgetfulStore extends MemoryIntentStore {
    override async get() {
      return undefined;
    }
    override async begin(draft: IntentRecord, owner: string, leaseMs: number) {
      return new MemoryIntentStore().begin(draft, owner, leaseMs);
    }
    override async put() {
      return 'ok' as const;
    }
  }

  it('the same key twice makes two payments with a forgetful store (so "one payment" can fail)', async () => {
    const c = client({ intentStore: new ForgetfulStore() });
    const orderId = await order(c);
    await c.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'k1' });
    await c.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'k1' });
    expect(paymentsOf(orderId)).toHaveLength(2);
    expect(creates).toBe(2);
  });
});
