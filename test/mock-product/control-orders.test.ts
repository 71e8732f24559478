/**
 * Issue 53, item 5: `GET /_mock/v1/orders` lists every order with its payments and refunds in the
 * page envelope of spec 2.6 (`external_reference`, `limit`, `offset`), and is in the control API's
 * OpenAPI document, so a test in any language counts what it made without reading the dashboard.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES, PaymentsClient } from '../../src/index.js';
import { useMock } from '../testing/helpers.js';
import { control as call } from './helpers.js';

const h = useMock();
const control = (method: string, path: string, body?: unknown) => call(h, method, path, body);

async function made() {
  const client = new PaymentsClient({
    ...h.mock.clientOptions(h.server.baseUrl),
    scopes: [...DEFAULT_SCOPES, 'svc/payments:refund'],
    maxRetries: 0,
  });
  const location_id = h.mock.fixtures.partners[0]!.locations.payments;
  const orders = [];
  for (const [i, reference] of ['inv-1', 'inv-2', 'inv-1'].entries()) {
    const order = await client.orders.create({
      location_id,
      total_cents: 1_000 + i,
      external_reference: reference,
    });
    orders.push(order);
  }
  const paid = orders[0]!;
  const payment = await client.payments.create(paid.order_id, { method: 'card', amount_cents: 1_000 });
  h.mock.processor.approve(payment.payment_id);
  h.mock.processor.settle(payment.payment_id);
  const refund = await client.refunds.create(paid.order_id, payment.payment_id, { amount_cents: 400 });
  return { orders, payment, refund };
}

describe('GET /_mock/v1/orders', () => {
  it('lists orders with their payments and refunds in the page envelope', async () => {
    h.mock.reset();
    const { orders, payment, refund } = await made();
    const page = await control('GET', '/orders');
    expect(page.status).toBe(200);
    expect(Object.keys(page.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
    expect([page.body.total, page.body.limit, page.body.offset]).toEqual([3, 50, 0]);
    expect(page.body.items.map((o: { order_id: string }) => o.order_id)).toEqual(
      orders.map((o) => o.order_id),
    );
    const first = page.body.items[0];
    expect(first).toMatchObject({
      order_id: orders[0]!.order_id,
      total_cents: 1_000,
      external_reference: 'inv-1',
    });
    expect(first.payments).toEqual([
      expect.objectContaining({ payment_id: payment.payment_id, status: 'settled' }),
    ]);
    expect(first.refunds).toEqual([
      expect.objectContaining({ refund_id: refund.refund_id, amount_cents: 400 }),
    ]);
    expect(page.body.items[1].payments).toEqual([]);
  });

  it('filters by external_reference and pages with limit and offset', async () => {
    h.mock.reset();
    const { orders } = await made();
    const inv1 = await control('GET', '/orders?external_reference=inv-1');
    expect(inv1.body.total).toBe(2);
    expect(inv1.body.items.map((o: { order_id: string }) => o.order_id)).toEqual([
      orders[0]!.order_id,
      orders[2]!.order_id,
    ]);
    const second = await control('GET', '/orders?limit=1&offset=1');
    expect([second.body.total, second.body.limit, second.body.offset]).toEqual([3, 1, 1]);
    expect(second.body.items.map((o: { order_id: string }) => o.order_id)).toEqual([orders[1]!.order_id]);
    expect((await control('GET', '/orders?external_reference=none')).body).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it.each(['limit=0', 'limit=201', 'limit=x', 'offset=-1'])(
    'refuses %s with 422 validation_error',
    async (query) => {
      const answer = await control('GET', `/orders?${query}`);
      expect([answer.status, answer.body.error]).toEqual([422, 'validation_error']);
    },
  );

  it('is in /_mock/v1/openapi.json with its query parameters and the page envelope', async () => {
    const doc = (await control('GET', '/openapi.json')).body;
    const op = doc.paths['/_mock/v1/orders']?.get;
    expect(op?.operationId).toBe('listOrders');
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'query:external_reference',
      'query:limit',
      'query:offset',
    ]);
    const schema = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['items', 'limit', 'offset', 'total']);
    expect(Object.keys(schema.properties.items.items.properties)).toEqual(
      expect.arrayContaining(['payments', 'refunds', 'external_reference']),
    );
  });
});

describe('mock.snapshot() is what its documentation says', () => {
  it('three flat lists of every partner, each record with its partner_id, and the clock', async () => {
    h.mock.reset();
    const { orders } = await made();
    const snap = h.mock.snapshot();
    expect(Object.keys(snap).sort()).toEqual(['now', 'orders', 'payments', 'refunds']);
    for (const list of [snap.orders, snap.payments, snap.refunds]) {
      expect(list.length).toBeGreaterThan(0);
      for (const record of list)
        expect(record).toHaveProperty('partner_id', orders[0]!.partner_id ?? expect.any(String));
    }
    expect(snap.orders[0]).not.toHaveProperty('payments');
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../src/testing/mock-service.ts', import.meta.url), 'utf8');
    const testingMd = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
    // The documented shape: flat lists, and where the nested view is.
    for (const text of [doc, testingMd]) {
      expect(text).toMatch(/three flat lists/);
      expect(text).toContain('GET /_mock/v1/orders');
    }
  });
});
