/**
 * The service side of a chaos run, in its own process so that the mock's state (which grows with
 * every order) and the proxy never count towards the heap of the process whose SDK clients are
 * measured: the shipped mock served on loopback (its engine wrapped to note every resource it
 * creates for a chaos call, and every secret it mints), the seeded chaos proxy in front of it, and
 * the fixtures each call needs, created straight on the mock. Spoken to over the IPC channel
 * (`ToServer`, `ToClient` in types.ts); started by harness.ts with `fork`.
 */
import { randomUUID } from 'node:crypto';
import { PaymentsClient, SCOPES } from '../../src/index.js';
import { serveMock } from '../helpers/loopback-mock.js';
import { CheckoutLedger } from './checkout.js';
import { KeyedLedger } from './keyed.js';
import { LagMonitor, Overruns } from './lag.js';
import { startChaosProxy } from './proxy.js';
import type { Fixture, Kind, ServerOptions, ServerSummary, ToClient, ToServer } from './types.js';

type EffectKind = 'order' | 'payment' | 'refund' | 'void';

const MUTATIONS: [RegExp, EffectKind][] = [
  [/^\/pos\/v1\/orders$/, 'order'],
  [/^\/pos\/v1\/orders\/[^/]+\/payments$/, 'payment'],
  [/^\/pos\/v1\/orders\/[^/]+\/payments\/[^/]+\/refunds$/, 'refund'],
  [/^\/pos\/v1\/orders\/[^/]+\/payments\/[^/]+\/void$/, 'void'],
];

/** What each kind of call may create. */
const CREATES: Partial<Record<Kind, EffectKind>> = {
  'orders.create': 'order',
  'orders.create.checkout': 'order',
  'payments.create': 'payment',
  'refunds.create': 'refund',
};

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const send = (message: ToClient) => process.send?.(message);

// Served at once: no request comes before the proxy in front of it is up and the client was told.
const served = await serveMock({ rateLimits: false, front: (request) => recorded(request) });
const { mock } = served;
const partner = mock.fixtures.partners[0];
if (!partner) throw new Error('the mock has no seeded partner');
const locationId = partner.locations.payments;
mock.seedLocations(partner.partnerId, 25);

// The mock's answers, by chaos call: the ids it created. A call should have one at most.
const createdBy = new Map<string, Set<string>>();
// Orders by Idempotency-Key: one at most.
const ordersByKey = new Map<string, Set<string>>();
const created = { orders: 0, payments: 0, refunds: 0, voids: 0 };
const secrets = new Map<string, string>([[mock.credentials.clientSecret, 'the client secret']]);
const broken = new Set<string>();

function note(callId: string, kind: EffectKind, id: string, key: string | null): void {
  if (kind === 'void') {
    created.voids++;
    return;
  }
  created[`${kind}s`]++;
  if (kind !== 'order') ledger.noteCreated(callId, kind, id);
  const ids = createdBy.get(callId) ?? new Set<string>();
  createdBy.set(callId, ids.add(`${kind}:${id}`));
  if (kind === 'order' && key) ordersByKey.set(key, (ordersByKey.get(key) ?? new Set()).add(id));
}

async function recorded(request: Request): Promise<Response> {
  const callId = request.headers.get('x-chaos-call');
  const path = new URL(request.url).pathname;
  const mutation = request.method === 'POST' ? MUTATIONS.find(([pattern]) => pattern.test(path)) : undefined;
  // The self-test's defect: the service forgets the key and creates the order a second time.
  if (mutation?.[1] === 'order' && callId && options.duplicateOrders) {
    const copy = new Request(request.clone(), { headers: new Headers(request.headers) });
    copy.headers.set('idempotency-key', randomUUID());
    const twin = await mock.fetch(copy);
    if (twin.ok) {
      const body = (await twin.json()) as { order_id: string };
      note(callId, 'order', body.order_id, request.headers.get('idempotency-key'));
    }
  }
  const response = await mock.fetch(request);
  if (request.method !== 'POST' || !response.ok) return response;
  if (!mutation && !path.endsWith('/oauth2/token')) return response;
  const body = (await response.clone().json()) as Record<string, unknown>;
  if (typeof body.access_token === 'string') secrets.set(body.access_token, 'an access token');
  if (typeof body.hosted_checkout_url === 'string') {
    secrets.set(body.hosted_checkout_url, 'a hosted checkout URL');
    const token = new URL(body.hosted_checkout_url).searchParams.get('token');
    if (token) secrets.set(token, 'a hosted checkout token');
  }
  if (mutation && callId) {
    const kind = mutation[1];
    const id = String(
      kind === 'order' ? body.order_id : kind === 'refund' ? body.refund_id : body.payment_id,
    );
    note(callId, kind, id, request.headers.get('idempotency-key'));
  }
  return response;
}

// Fixtures are made straight on the mock's engine: no network, no proxy, no faults.
const setup = new PaymentsClient({
  ...mock.clientOptions(),
  scopes: [...SCOPES],
  fetch: (url, init) => mock.fetch(new Request(url, init)),
});
// Payments and refunds under keys: who created what, and the fixtures of keyed payments.
const ledger = new KeyedLedger({
  order: async (total) =>
    (await setup.orders.create({ location_id: locationId, total_cents: total })).order_id,
  payment: async (orderId, amount) =>
    (await setup.payments.create(orderId, { method: 'card', amount_cents: amount })).payment_id,
});

// Checkouts: what each key's requests created, judged with `createdBy`.
const checkouts = new CheckoutLedger();

async function prepare(callId: string, kind: Kind): Promise<Fixture | undefined> {
  if (kind === 'charge') {
    checkouts.noteKey(callId);
    return undefined;
  }
  if (kind === 'orders.create' || kind === 'orders.create.checkout' || kind === 'locations.list')
    return undefined;
  if (kind === 'payments.create') return ledger.paymentFixture(callId);
  const order = await setup.orders.create({ location_id: locationId, total_cents: 10_000 });
  const payment = await setup.payments.create(order.order_id, { method: 'card', amount_cents: 10_000 });
  if (kind === 'refunds.create') {
    mock.processor.approve(payment.payment_id);
    mock.processor.settle(payment.payment_id);
  }
  const fixture: Fixture = { orderId: order.order_id, paymentId: payment.payment_id };
  if (kind === 'refunds.create') ledger.refundFixture(callId, fixture);
  return fixture;
}

/** The client reported a failed call: if the mock created its resource, it must say so. */
function judgeFailure(message: Extract<ToServer, { t: 'failure' }>): void {
  const { callId, kind } = message;
  const creates = CREATES[kind];
  if (creates === undefined) return;
  const made = [...(createdBy.get(callId) ?? [])].some((id) => id.startsWith(`${creates}:`));
  if (made && !message.outcomeUnknown)
    broken.add(`${callId} ${kind}: created, but failed without outcomeUnknown`);
  if (creates === 'order' && !message.idempotencyKey)
    broken.add(`${callId} ${kind}: failed without its idempotencyKey`);
  if (creates === 'order' && message.idempotencyKey && !ordersByKeyHasOnly(callId, message.idempotencyKey))
    broken.add(`${callId} ${kind}: the error's idempotencyKey is not the key that created the order`);
}

function ordersByKeyHasOnly(callId: string, key: string): boolean {
  const mine = [...(createdBy.get(callId) ?? [])].filter((id) => id.startsWith('order:'));
  if (mine.length === 0) return true;
  const byKey = ordersByKey.get(key) ?? new Set();
  return mine.every((id) => byKey.has(id.slice('order:'.length)));
}

// Failures are judged at the end: an attempt the client gave up on may still reach the mock later.
const failures: Extract<ToServer, { t: 'failure' }>[] = [];

function summarise(reset: boolean): ServerSummary {
  for (const failure of failures.splice(0)) judgeFailure(failure);
  for (const [key, orders] of ordersByKey)
    if (orders.size > 1) broken.add(`key ${key}: ${orders.size} orders`);
  for (const [callId, ids] of createdBy) {
    for (const kind of ['order', 'payment', 'refund'] as const) {
      const n = [...ids].filter((id) => id.startsWith(`${kind}:`)).length;
      if (n > 1) broken.add(`${callId}: ${n} ${kind}s created`);
    }
  }
  // The mock's own state: one payment per key (of its amount, on its order), one refund per key
  // (of its payment); and each result a client returned is its own call's.
  const keyed = ledger.judge(mock.snapshot(), broken);
  const checkoutFigures = checkouts.judge(createdBy, broken);
  const summary: ServerSummary = {
    proxy: proxy.figures(reset),
    created: { ...created },
    broken: [...broken],
    keyed,
    checkouts: checkoutFigures,
    secrets: [...secrets],
    loopDelayMaxMs: Math.round(lag.max),
    heapUsedMB: Math.round(process.memoryUsage().heapUsed / 1_048_576),
  };
  if (reset) {
    // The figures start again; the checks keep covering every call (the warm-up's too).
    for (const kind of Object.keys(created) as (keyof typeof created)[]) created[kind] = 0;
    lag.max = 0;
  }
  return summary;
}

const lag = new LagMonitor();
lag.start();
const proxy = await startChaosProxy({
  upstreamPort: served.server.port,
  seed: options.seed,
  faultRate: options.faultRate,
  timeoutMs: options.timeoutMs,
  overruns: new Overruns(options.marginMs, lag),
  faults: options.faults,
});

process.on('message', (message: ToServer) => {
  switch (message.t) {
    case 'prepare':
      prepare(message.callId, message.kind).then(
        (fixture) => send({ t: 'fixture', id: message.id, fixture }),
        (error: unknown) => send({ t: 'fixture', id: message.id, fixture: undefined, error: String(error) }),
      );
      return;
    case 'failure':
      failures.push(message);
      return;
    case 'created':
      if (message.kind === 'charge') checkouts.noteResult(message.callId, message.id);
      else ledger.noteResult(message);
      return;
    case 'sync':
      send({ t: 'synced', id: message.id });
      return;
    case 'collect':
      send({ t: 'summary', id: message.id, summary: summarise(message.reset) });
      return;
  }
});
process.on('disconnect', () => {
  void proxy.close().then(() => served.stop());
});

send({
  t: 'ready',
  proxyUrl: proxy.url,
  clientId: mock.credentials.clientId,
  clientSecret: mock.credentials.clientSecret,
  locationId,
});
