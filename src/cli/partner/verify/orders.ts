// Verify's items of spec 4.1, 4.2, 4.11 and 4.12: refused order bodies, order creation with an
// Idempotency-Key (its replay and its conflict), reading the order, the hosted checkout URL and
// page, and the launch endpoints' refusals. Every order it creates is small and carries an
// external_reference starting `verify-`.
import { randomUUID } from 'node:crypto';
import type { PaymentsClient } from '../../../index.js';
import { ANY, makeClient } from '../sdk.js';
import { ORDER, ORDER_CREATED, ORDER_WITH_CHECKOUT } from './contract.js';
import { type Answer, type Ctx, type Json, NIL } from './suite.js';

/** The amount of every test order and payment, in cents. */
export const AMOUNT = 100;

/** Keeps the id of an order an answer created (also one a deviating service should have refused). */
export function trackOrder(ctx: Ctx, answer: Answer): string | undefined {
  const id = (answer.json as Json)?.order_id;
  if (answer.exchange && answer.exchange.status < 300 && typeof id === 'string') {
    if (!ctx.orders.includes(id)) ctx.orders.push(id);
    return id;
  }
  return undefined;
}

/** The body of a test order: small, described, findable by its reference. */
export function testOrder(ctx: Ctx, n: number, extra: Record<string, unknown> = {}) {
  return {
    location_id: ctx.location!,
    total_cents: AMOUNT,
    description: 'partner-payments verify: a contract check (any payment of it is voided)',
    external_reference: `${ctx.run}-${n}`,
    external_source: 'partner-payments verify',
    ...extra,
  };
}

/** A POST of `body` as it is (the SDK's own checks would refuse it before sending). */
function rawPost(client: PaymentsClient, path: string, body: unknown, scope?: string) {
  return client.request({
    method: 'POST',
    path,
    body,
    retry: 'unsafe',
    response: ANY,
    ...(scope ? { scope } : {}),
  });
}

/** 4.1 and 4.2: refusals, creation, replay and conflict, reading. Returns the order to pay. */
export async function orderItems(ctx: Ctx): Promise<string | undefined> {
  const { suite, main } = ctx;
  const body = testOrder(ctx, 1);
  const refused = async (title: string, call: () => Promise<unknown>, status: number[], code: string[]) =>
    trackOrder(ctx, await suite.probe('4.1', title, call, { status, code }));
  const { location_id: _, ...noLocation } = body;
  await refused(
    'an order without location_id → 400 invalid_request',
    () => rawPost(main, '/pos/v1/orders', noLocation),
    [400],
    ['invalid_request'],
  );
  await refused(
    'an order of 0 cents → 422 validation_error (or 400 invalid_request)',
    () => rawPost(main, '/pos/v1/orders', { ...body, total_cents: 0 }),
    [422, 400],
    ['validation_error', 'invalid_request'],
  );
  await refused(
    'an order at an unknown location → 404 location_not_found',
    () => main.orders.create({ ...body, location_id: NIL }),
    [404],
    ['location_not_found'],
  );

  const key = randomUUID();
  const created = await suite.probe(
    '4.1',
    'POST /pos/v1/orders with an Idempotency-Key → 201 with order_id, status open, total_cents, created_at',
    () => main.orders.create(body, { idempotencyKey: key }),
    {
      status: 201,
      shape: ORDER_CREATED,
      check: (json) =>
        json.total_cents === AMOUNT ? [] : [`total_cents is ${json.total_cents}, sent ${AMOUNT}`],
    },
  );
  const orderId = trackOrder(ctx, created);
  if (!orderId) {
    suite.skip('4.1', 'idempotent replay and conflict', 'no order was created');
    return undefined;
  }
  const replay = await suite.probe(
    '4.1',
    'the same Idempotency-Key and body again → 201, the original order (no second one)',
    () => main.orders.create(body, { idempotencyKey: key }),
    {
      status: 201,
      shape: ORDER_CREATED,
      check: (json) =>
        json.order_id === orderId ? [] : ['a different order_id: a second order was created'],
    },
  );
  trackOrder(ctx, replay);
  trackOrder(
    ctx,
    await suite.probe(
      '4.1',
      'the same Idempotency-Key with another body → 409 idempotency_conflict',
      () => main.orders.create({ ...body, total_cents: AMOUNT + 1 }, { idempotencyKey: key }),
      { status: 409, code: 'idempotency_conflict' },
    ),
  );
  await suite.probe(
    '4.2',
    'GET /pos/v1/orders/{id} → 200, the order of 2.1 as created (open, no payments)',
    () => main.orders.get(orderId),
    {
      status: 200,
      shape: ORDER,
      check: (json) => [
        ...(json.order_id === orderId ? [] : ['order_id differs']),
        ...(json.location_id === body.location_id ? [] : ['location_id differs from the one sent']),
        ...(json.total_cents === AMOUNT ? [] : [`total_cents is ${json.total_cents}, sent ${AMOUNT}`]),
        ...(json.external_reference === body.external_reference
          ? []
          : ['external_reference differs from the one sent']),
        ...(json.status === 'open' ? [] : [`status is ${json.status}, expected open (3.2: no payment yet)`]),
        ...(json.payments.length === 0 ? [] : [`${json.payments.length} payments on a new order`]),
      ],
    },
  );
  return orderId;
}

/** 4.2 (read-only runs): an unknown order. */
export async function unknownOrderItem(ctx: Ctx): Promise<void> {
  const client = ctx.byScope.get('svc/payments:read');
  const title = 'an unknown order → 404 order_not_found';
  if (!client) return ctx.suite.skip('4.2', title, 'the client lacks svc/payments:read');
  await ctx.suite.probe('4.2', title, () => client.orders.get(NIL), { status: 404, code: 'order_not_found' });
}

/** 4.11: an order with return and cancel URLs carries the hosted checkout URL, whose page opens. */
export async function hostedCheckoutItems(ctx: Ctx): Promise<void> {
  const { suite, main } = ctx;
  const urls = {
    return_url: 'https://example.com/partner-payments-verify/return',
    cancel_url: 'https://example.com/partner-payments-verify/cancel',
  };
  const created = await suite.probe(
    '4.11',
    'an order with return_url and cancel_url → 201 with hosted_checkout_url and expires_at (5 minutes)',
    () => main.orders.create(testOrder(ctx, 2, urls)),
    { status: 201, shape: ORDER_WITH_CHECKOUT, check: checkoutProblems },
  );
  trackOrder(ctx, created);
  const title = 'the hosted checkout page, without a token → 200 HTML';
  const link = (created.json as Json)?.hosted_checkout_url;
  if (created.problems.length > 0 || typeof link !== 'string') {
    return suite.skip(
      '4.11',
      title,
      link === null ? 'no URL was generated (hosted_checkout_url null)' : 'no URL to open',
    );
  }
  const url = new URL(link);
  const page = makeClient({ ...ctx.target, baseUrl: url.origin });
  await suite.probe(
    '4.11',
    title,
    () =>
      page.request({
        method: 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        auth: false,
        retry: 'safe',
        response: ANY,
      }),
    { status: 200, html: true },
  );
}

function checkoutProblems(json: Json): string[] {
  const problems: string[] = [];
  const link = json.hosted_checkout_url;
  if (typeof link === 'string' && !URL.canParse(link)) problems.push('hosted_checkout_url is not a URL');
  else if (typeof link === 'string') {
    const url = new URL(link);
    if (url.pathname !== '/pos/v1/public/hosted-checkout')
      problems.push('hosted_checkout_url is not /pos/v1/public/hosted-checkout');
    if (!url.searchParams.get('token')) problems.push('hosted_checkout_url carries no token');
    const loopback = /^(localhost|127\.|\[::1\])/.test(url.hostname);
    if (url.protocol !== 'https:' && !loopback) problems.push('hosted_checkout_url is not https (spec 1.1)');
  }
  const ttl = Date.parse(json.expires_at) - Date.parse(json.created_at);
  if (!(ttl > 0 && ttl <= 5 * 60_000 + 5_000)) {
    problems.push(`expires_at is ${Math.round(ttl / 1000)} s after created_at, expected 5 minutes (spec 8)`);
  }
  return problems;
}

/** 4.12: refusals only (a launch token provisions a user when exchanged; verify creates none). */
export async function launchItems(ctx: Ctx): Promise<void> {
  const { suite, main } = ctx;
  const title = 'POST /pos/v1/launch-tokens without location_id → 400 invalid_request';
  if (!ctx.has('svc/pos:launch')) suite.skip('4.12', title, 'the client lacks svc/pos:launch');
  else {
    await suite.probe(
      '4.12',
      title,
      () => rawPost(main, '/pos/v1/launch-tokens', { role_slug: 'location_cashier' }, 'svc/pos:launch'),
      {
        status: 400,
        code: 'invalid_request',
      },
    );
  }
  await suite.probe(
    '4.12',
    'POST /pos/v1/public/launch-exchange with an unknown token → 4xx with the error envelope (codes not shown)',
    () => main.launchTokens.exchange(`verify-unknown-${randomUUID()}`),
    { status: [400, 401, 403, 404, 409, 410, 422] },
  );
}
