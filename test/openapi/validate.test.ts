import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/testing/documents/openapi.js';
import type { Exchange } from '../../src/testing/engine/exchanges.js';
import { createValidator } from './validate.js';

const validate = createValidator(buildOpenApiDocument());
const exchange = (method: string, path: string, response: Response, requestBody = ''): Exchange => ({
  method,
  url: `http://127.0.0.1:1${path}`,
  requestBody,
  response,
});
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const error = { error: 'order_not_found', message: 'Order not found', request_id: 'req_0123456789abcdef' };

describe('the exchange validator can fail (positive controls of the suite-wide check)', () => {
  it('accepts a documented answer', async () => {
    expect(await validate(exchange('GET', '/pos/v1/orders/x', json(404, error)))).toEqual([]);
  });

  it('flags a body that breaks its schema, an undocumented status, a wrong media type', async () => {
    const [shape] = await validate(exchange('GET', '/pos/v1/orders/x', json(404, { error: 'x' })));
    expect(shape?.problem).toMatch(/must have required property 'message'/);
    const [status] = await validate(exchange('GET', '/pos/v1/orders/x', json(418, error)));
    expect(status?.problem).toBe('status 418 is not documented for getOrder');
    const page = new Response('<p>hi</p>', { status: 400, headers: { 'content-type': 'text/html' } });
    const [media] = await validate(exchange('GET', '/pos/v1/orders/x', page));
    expect(media?.problem).toMatch(/media type text\/html is not documented/);
  });

  it('flags a void answered 200 (deviation 2) and an accepted request the document refuses', async () => {
    const voided = { payment_id: 'p', status: 'voided', voided_at: '2026-01-01T00:00:00Z' };
    const [void200] = await validate(exchange('POST', '/pos/v1/orders/o/payments/p/void', json(200, voided)));
    expect(void200?.problem).toBe('status 200 is not documented for voidPayment');
    const created = json(201, { order_id: 'o' });
    const problems = await validate(exchange('POST', '/pos/v1/orders', created, '{"total_cents":"x"}'));
    expect(problems.map((p) => p.problem).join('\n')).toMatch(/accepted a request body the document refuses/);
  });

  it('in strict mode (as the suite runs it), flags a field the document does not declare, at any depth', async () => {
    const strict = createValidator(buildOpenApiDocument(), { strict: true });
    const [o, l, p, t] = [
      '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f',
      '1c8f8b63-4b5d-4d62-9f1f-5e4c3b2d0f9a',
      '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      '2026-11-20T10:00:00.000Z',
    ];
    const order = {
      order_id: o,
      location_id: l,
      status: 'open',
      total_cents: 100,
      payments: [{ payment_id: p, status: 'pending', amount_cents: 100, method: 'card', created_at: t }],
      created_at: t,
      updated_at: t,
    };
    const read = (body: unknown) => exchange('GET', '/pos/v1/orders/o', json(200, body));
    expect(await strict(read(order))).toEqual([]);
    expect(await validate(read({ ...order, metadata: {} }))).toEqual([]);
    const [top] = await strict(read({ ...order, metadata: {} }));
    expect(top?.problem).toBe('body: data must NOT have additional properties (metadata)');
    const nested = { ...order, payments: [{ ...order.payments[0], fee_cents: 1 }] };
    const [deep] = await strict(read(nested));
    expect(deep?.problem).toBe('body: data/payments/0 must NOT have additional properties (fee_cents)');
  });

  it('flags an unknown path that does not answer 404, and a 405 without Allow', async () => {
    const [unknown] = await validate(exchange('GET', '/nope', json(501, error)));
    expect(unknown?.problem).toBe('an undocumented path must answer 404');
    const [allow] = await validate(exchange('DELETE', '/pos/v1/orders', json(405, error)));
    expect(allow?.problem).toBe('405 without Allow');
  });
});
