import { describe, expect, it } from 'vitest';
import { PaymentsClient, RequestValidationError } from '../../src/index.js';

const LOC = '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11';
const ORDER = '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f';
const PAY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const line = {
  description: 'Diesel',
  quantity: 2,
  unit_price_cents: 450,
  total_cents: 900,
  tax_amount_cents: 72,
};
const level3 = (over: Record<string, unknown> = {}, lineOver: Record<string, unknown> = {}) => ({
  tax_amount_cents: 72,
  line_items: [{ ...line, ...lineOver }],
  ...over,
});
const order = (over: Record<string, unknown>) => ({ location_id: LOC, total_cents: 1000, ...over });

type Call = (client: PaymentsClient) => PromiseLike<unknown>;
type Case = [name: string, call: Call, path: (string | number)[], code?: string];

const cases: Case[] = [
  // Money: integer cents only.
  ['float total', (c) => c.orders.create(order({ total_cents: 10.5 })), ['total_cents']],
  [
    'string total',
    (c) => c.orders.create(order({ total_cents: '1000' as unknown as number })),
    ['total_cents'],
  ],
  ['NaN total', (c) => c.orders.create(order({ total_cents: Number.NaN })), ['total_cents']],
  [
    'Infinity total',
    (c) => c.orders.create(order({ total_cents: Number.POSITIVE_INFINITY })),
    ['total_cents'],
  ],
  ['unsafe integer total', (c) => c.orders.create(order({ total_cents: 2 ** 53 })), ['total_cents']],
  ['zero total', (c) => c.orders.create(order({ total_cents: 0 })), ['total_cents']],
  ['negative total', (c) => c.orders.create(order({ total_cents: -100 })), ['total_cents']],
  ['missing total', (c) => c.orders.create({ location_id: LOC } as never), ['total_cents']],
  [
    'float payment amount',
    (c) => c.payments.create(ORDER, { method: 'card', amount_cents: 0.1 }),
    ['amount_cents'],
  ],
  [
    'zero payment amount',
    (c) => c.payments.create(ORDER, { method: 'card', amount_cents: 0 }),
    ['amount_cents'],
  ],
  [
    'unknown method',
    (c) => c.payments.create(ORDER, { method: 'ach' as 'card', amount_cents: 100 }),
    ['method'],
  ],
  ['float refund amount', (c) => c.refunds.create(ORDER, PAY, { amount_cents: 99.99 }), ['amount_cents']],
  ['negative refund amount', (c) => c.refunds.create(ORDER, PAY, { amount_cents: -1 }), ['amount_cents']],
  [
    'unknown refund reason',
    (c) => c.refunds.create(ORDER, PAY, { amount_cents: 1, reason: 'changed_mind' as never }),
    ['reason'],
  ],
  // Identifiers: UUIDs, also in paths.
  ['non-UUID location', (c) => c.orders.create(order({ location_id: 'loc-1' })), ['location_id']],
  ['non-UUID department', (c) => c.orders.create(order({ department_id: '42' })), ['department_id']],
  ['path traversal order id', (c) => c.orders.get('../locations'), ['orderId']],
  ['empty order id', (c) => c.orders.get(''), ['orderId']],
  ['order id with query', (c) => c.orders.get(`${ORDER}?x=1`), ['orderId']],
  ['traversal payment id', (c) => c.payments.get(ORDER, '../../void'), ['paymentId']],
  ['traversal on void', (c) => c.payments.void('..', PAY), ['orderId']],
  ['bad refund id', (c) => c.refunds.get(ORDER, PAY, 'r/1'), ['refundId']],
  ['bad location id', (c) => c.locations.get('%2e%2e'), ['locationId']],
  ['bad partner id', (c) => c.webhookEndpoints.create('p1', { url: 'https://example.com/h' }), ['partnerId']],
  // Contact formats.
  ['bad email', (c) => c.orders.create(order({ customer_email: 'not-an-email' })), ['customer_email']],
  ['phone without plus', (c) => c.orders.create(order({ customer_phone: '5551234567' })), ['customer_phone']],
  [
    'phone with letters',
    (c) => c.orders.create(order({ customer_phone: '+1555CALLNOW' })),
    ['customer_phone'],
  ],
  [
    'phone too long',
    (c) => c.orders.create(order({ customer_phone: '+1234567890123456' })),
    ['customer_phone'],
  ],
  // Hosted checkout URLs.
  [
    'http return url',
    (c) =>
      c.orders.create(
        order({ return_url: 'http://shop.example.com/ok', cancel_url: 'https://shop.example.com/no' }),
      ),
    ['return_url'],
  ],
  [
    'http cancel url',
    (c) =>
      c.orders.create(
        order({ return_url: 'https://shop.example.com/ok', cancel_url: 'http://shop.example.com/no' }),
      ),
    ['cancel_url'],
  ],
  [
    'return_url without cancel_url',
    (c) => c.orders.create(order({ return_url: 'https://shop.example.com/ok' })),
    ['cancel_url'],
  ],
  [
    'cancel_url without return_url',
    (c) => c.orders.create(order({ cancel_url: 'https://shop.example.com/no' })),
    ['return_url'],
  ],
  [
    'javascript return url',
    (c) => c.orders.create(order({ return_url: 'javascript:alert(1)' })),
    ['return_url'],
  ],
  ['http webhook url', (c) => c.webhookEndpoints.create(ORDER, { url: 'http://example.com/h' }), ['url']],
  [
    'unknown event kind',
    (c) =>
      c.webhookEndpoints.create(ORDER, {
        url: 'https://example.com/h',
        event_kinds: ['payment.exploded' as never],
      }),
    ['event_kinds', 0],
  ],
  // Paging.
  ['limit 0', (c) => c.locations.list({ limit: 0 }), ['limit']],
  ['limit 201', (c) => c.locations.list({ limit: 201 }), ['limit']],
  ['float limit', (c) => c.locations.list({ limit: 2.5 }), ['limit']],
  ['negative offset', (c) => c.locations.list({ offset: -1 }), ['offset']],
  // Typos are caught, not silently dropped.
  ['camelCase field', (c) => c.orders.create({ ...order({}), totalCents: 5 } as never), []],
  // Level 3.
  [
    'description of 41 characters',
    (c) => c.orders.create(order({ level3: level3({}, { description: 'x'.repeat(41) }) })),
    ['level3', 'line_items', 0, 'description'],
  ],
  [
    'quantity 0',
    (c) => c.orders.create(order({ level3: level3({}, { quantity: 0, total_cents: 0 }) })),
    ['level3', 'line_items', 0, 'quantity'],
  ],
  [
    'negative quantity',
    (c) => c.orders.create(order({ level3: level3({}, { quantity: -1, total_cents: 0 }) })),
    ['level3', 'line_items', 0, 'quantity'],
  ],
  [
    'tax off by 2 cents over',
    (c) => c.orders.create(order({ level3: level3({ tax_amount_cents: 74 }) })),
    ['level3', 'tax_amount_cents'],
    'level3_tax_mismatch',
  ],
  [
    'tax off by 2 cents under',
    (c) => c.orders.create(order({ level3: level3({ tax_amount_cents: 70 }) })),
    ['level3', 'tax_amount_cents'],
    'level3_tax_mismatch',
  ],
  [
    'line total off by 2 cents',
    (c) => c.orders.create(order({ level3: level3({}, { total_cents: 902 }) })),
    ['level3', 'line_items', 0, 'total_cents'],
    'level3_validation_failed',
  ],
  [
    'payment-level Level 3 checked on its own',
    (c) =>
      c.payments.create(ORDER, {
        method: 'card',
        amount_cents: 900,
        level3: level3({ tax_amount_cents: 0 }),
      }),
    ['level3', 'tax_amount_cents'],
    'level3_tax_mismatch',
  ],
  [
    'float unit price',
    (c) => c.orders.create(order({ level3: level3({}, { unit_price_cents: 4.5 }) })),
    ['level3', 'line_items', 0, 'unit_price_cents'],
  ],
  [
    'no line items',
    (c) => c.orders.create(order({ level3: { tax_amount_cents: 0, line_items: [] } })),
    ['level3', 'line_items'],
  ],
  // Launch links.
  ['launch token without location', (c) => c.launchTokens.create({} as never), ['location_id']],
  ['empty launch token', (c) => c.launchTokens.exchange(''), ['launch_token']],
];

/** A client on a fetch of your own (the wire): nothing reaches a network. */
function countingClient(fetch: () => Promise<Response>, options: { maxRetries?: number } = {}) {
  return new PaymentsClient({
    clientId: 'client-id',
    clientSecret: 'client-secret',
    baseUrl: 'https://api.payments.test',
    authUrl: 'https://auth.payments.test',
    fetch: async () => fetch(),
    ...options,
  });
}

describe('request validation: rejected before anything is sent', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', async (_name, call, path, code) => {
    let requests = 0;
    const client = countingClient(() => {
      requests++;
      throw new Error('no request may be sent');
    });
    const error = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    const issues = (error as RequestValidationError).issues;
    expect(issues.map((i) => i.path)).toContainEqual(path);
    if (code) expect(issues.find((i) => i.path.join('.') === path.join('.'))?.code).toBe(code);
    expect(requests).toBe(0);
  });
});

describe('messages a partner reads', () => {
  const issuesOf = async (call: Call) => {
    const client = countingClient(() => {
      throw new Error('no request may be sent');
    });
    const error = await call(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    return error as RequestValidationError;
  };

  it('a missing required field says "required", not the type rule', async () => {
    const error = await issuesOf((c) => c.orders.create({ location_id: LOC } as never));
    expect(error.issues).toEqual([{ path: ['total_cents'], message: 'required' }]);
    expect(error.message).toContain('total_cents: required');
    const wrongType = await issuesOf((c) => c.orders.create(order({ total_cents: '1000' })));
    expect(wrongType.issues[0]?.message).toMatch(/integer/);
    const nested = await issuesOf((c) =>
      c.orders.create(order({ level3: { tax_amount_cents: 0, line_items: [{ description: 'x' }] } })),
    );
    expect(nested.issues).toContainEqual(
      expect.objectContaining({ path: ['level3', 'line_items', 0, 'quantity'], message: 'required' }),
    );
  });

  it('one hosted checkout URL without the other says both are needed', async () => {
    const error = await issuesOf((c) =>
      c.orders.create(order({ return_url: 'https://shop.example.com/ok' })),
    );
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.message).toMatch(
      /required when return_url is given: .*needs both return_url and cancel_url/,
    );
  });
});

/** A client whose wire answers the token endpoint, then 201 to an order, recording the order bodies. */
function recordingClient() {
  const bodies: unknown[] = [];
  const client = new PaymentsClient({
    clientId: 'client-id',
    clientSecret: 'client-secret',
    baseUrl: 'https://api.payments.test',
    authUrl: 'https://auth.payments.test',
    maxRetries: 0,
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (url.endsWith('/oauth2/token')) return json(200, { access_token: 'at_1', expires_in: 3600 });
      bodies.push(JSON.parse(String(init?.body)));
      return json(201, {
        order_id: ORDER,
        status: 'open',
        total_cents: 1,
        created_at: '2026-11-22T00:00:00Z',
      });
    },
  });
  return { client, bodies };
}

describe('Level 3 boundaries accepted within 1 cent', () => {
  it.each([
    ['tax 1 cent over', level3({ tax_amount_cents: 73 })],
    ['tax 1 cent under', level3({ tax_amount_cents: 71 })],
    ['line total 1 cent over', level3({}, { total_cents: 901 })],
    ['line total 1 cent under', level3({}, { total_cents: 899 })],
    [
      'fractional quantity',
      level3(
        { tax_amount_cents: 0 },
        { quantity: 12.345, unit_price_cents: 389, total_cents: 4802, tax_amount_cents: 0 },
      ),
    ],
    ['description of exactly 40 characters', level3({}, { description: 'x'.repeat(40) })],
  ])('%s', async (_name, l3) => {
    const { client, bodies } = recordingClient();
    await client.orders.create(order({ level3: l3 }));
    // Sent once, and exactly as given: nothing dropped, rounded or rewritten.
    expect(bodies).toEqual([order({ level3: l3 })]);
  });

  it('both hosted checkout URLs together are sent as given', async () => {
    const { client, bodies } = recordingClient();
    const urls = { return_url: 'http://127.0.0.1:3000/ok', cancel_url: 'https://shop.example.com/no' };
    await client.orders.create(order(urls));
    expect(bodies).toEqual([order(urls)]);
  });
});
