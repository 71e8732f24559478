// The values a doc block uses without defining them (client, orderId, ...), for blocks that run from
// the packed tarball (scripts/run-docs.mjs): a client of `npx partner-payments-mock` from the
// PAYMENTS_* variables its banner printed, and an order with an approved payment on it.
import { randomUUID } from 'node:crypto';
import { PaymentsClient, SCOPES } from 'partner-payments';
import { createMockService, type MockServer, type MockService } from 'partner-payments/testing';
import { signWebhookPayload } from 'partner-payments/webhooks';

const env = (name: string) => process.env[name] ?? '';
const later: (() => unknown)[] = [];
let client: PaymentsClient | undefined;
let order: Promise<{ orderId: string; paymentId: string }> | undefined;
/** How the block's order is made: open (no payment yet), with an approved payment, or a settled one. */
let wanted: 'open' | 'approved' | 'settled' = 'open';
/** A block that uses `mock` gets an embedded mock, and its client, ids and partner come from it. */
let embedded: Promise<{ mock: MockService; server: MockServer }> | undefined;

const getEmbedded = () => {
  embedded ??= (async () => {
    const mock = createMockService();
    const server = await mock.listen();
    later.push(() => server.close());
    const options = mock.clientOptions(server.baseUrl);
    Object.assign(process.env, {
      PAYMENTS_BASE_URL: options.baseUrl,
      PAYMENTS_AUTH_URL: options.authUrl,
      PAYMENTS_CLIENT_ID: options.clientId,
      PAYMENTS_CLIENT_SECRET: options.clientSecret,
      PAYMENTS_LOCATION_ID: mock.fixtures.partners[0]!.locations.payments,
      PAYMENTS_PARTNER_ID: mock.fixtures.partners[0]!.partnerId,
    });
    return { mock, server };
  })();
  return embedded;
};
const getClient = () => {
  client ??= new PaymentsClient({ scopes: [...SCOPES] });
  return client;
};
const getOrder = () => {
  order ??= (async () => {
    const c = getClient();
    const created = await c.orders.create({ location_id: env('PAYMENTS_LOCATION_ID'), total_cents: 12_500 });
    if (wanted === 'open') return { orderId: created.order_id, paymentId: '' };
    const payment = await c.payments.create(created.order_id, { method: 'card', amount_cents: 12_500 });
    // The bin's demo mode approves it after 1.5 s and settles it 5 s later; an embedded mock's
    // payment stays pending for the block to move on.
    if (!embedded)
      await c.awaitPaymentResult(created.order_id, payment.payment_id, {
        intervalMs: 100,
        until: wanted === 'settled' ? ['settled'] : ['approved'],
      });
    return { orderId: created.order_id, paymentId: payment.payment_id };
  })();
  return order;
};

const values: Record<string, () => unknown> = {
  client: getClient,
  locationId: () => env('PAYMENTS_LOCATION_ID'),
  partnerId: () => env('PAYMENTS_PARTNER_ID'),
  baseUrl: () => env('PAYMENTS_BASE_URL'),
  clientId: () => env('PAYMENTS_CLIENT_ID'),
  clientSecret: () => env('PAYMENTS_CLIENT_SECRET'),
  orderId: async () => (await getOrder()).orderId,
  sessionOrderId: async () => (await getOrder()).orderId,
  paymentId: async () => (await getOrder()).paymentId,
  returnUrl: async () =>
    `https://shop.example/checkout/return?order_id=${(await getOrder()).orderId}&status=paid`,
  controller: () => new AbortController(),
  params: () => ({ location_id: env('PAYMENTS_LOCATION_ID'), total_cents: 1_000 }),
  myOrderUuid: () => randomUUID(),
  // A partner's own ids (a cart, an invoice): new for each run of a block.
  cartId: () => `cart-${randomUUID()}`,
  invoiceId: () => `inv-${randomUUID()}`,
  traceId: () => '0af7651916cd43dd8448eb211c80319c',
  metrics: () => ({ histogram() {}, increment() {} }),
  link: () => getClient().launchTokens.create({ location_id: env('PAYMENTS_LOCATION_ID') }),
  mock: async () => (await getEmbedded()).mock,
  secret: () => env('PAYMENTS_WEBHOOK_SECRET'),
  rawBody: () => {
    const event = {
      v: 1,
      event_id: 'evt_docs',
      event_kind: 'payment.approved',
      occurred_at: new Date().toISOString(),
      partner_id: env('PAYMENTS_PARTNER_ID'),
      resource: {
        payment_id: randomUUID(),
        order_id: randomUUID(),
        status: 'approved',
        amount_cents: 100,
        method: 'card',
      },
    };
    return Buffer.from(signWebhookPayload(event, env('PAYMENTS_WEBHOOK_SECRET')).body);
  },
  // A test runner's hooks: before-all now, the others once the block ran.
  beforeAll: () => (fn: () => unknown) => fn(),
  afterEach: () => (fn: () => unknown) => later.push(fn),
  afterAll: () => (fn: () => unknown) => later.push(fn),
};

/** The values of `names`; a name with no value here belongs to a block marked typecheck-only. */
export async function setup(names: string[], code: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  // What the block does with its order: pays it (open), refunds its payment (settled), or reads it.
  if (names.includes('paymentId') || names.includes('returnUrl') || names.includes('sessionOrderId'))
    wanted = /refunds\.create/.test(code) ? 'settled' : 'approved';
  if (names.includes('mock')) await getEmbedded();
  for (const name of names) {
    const value = values[name];
    if (!value)
      throw new Error(
        `a running block uses \`${name}\`: give it a value in doc-harness.ts, or mark the block typecheck-only`,
      );
    out[name] = await value();
  }
  return out;
}

/** Runs the hooks a block registered, then ends the process (servers a block left open included). */
export async function finish(): Promise<void> {
  for (const fn of later) await fn();
  process.exit(0);
}
