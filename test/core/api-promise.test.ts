import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import { APIPromise } from '../../src/core/call/api-promise.js';
import { NotFoundError } from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { LOCATION_ID, ORDER_ID, openOrderBody, orderCreatedBody, paymentBody } from '../helpers/fixtures.js';
import { apiError, TEST_CLIENT_SECRET, TOKEN_PREFIX } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const order = openOrderBody;

const location = {
  location_id: LOCATION_ID,
  name: 'North',
  timezone: 'America/Chicago',
  currency: 'USD',
  active: true,
};

describeTransports('APIPromise', (t) => {
  it('awaited, gives the data; withResponse() adds the request id (body first), status and headers', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', () =>
        HttpResponse.json(
          { ...order, request_id: 'req_body' },
          { headers: { 'X-Request-Id': 'req_header' } },
        ),
      ),
      http.post('*/pos/v1/orders', () =>
        HttpResponse.json(orderCreatedBody, { status: 201, headers: { 'X-Request-Id': 'req_created' } }),
      ),
    );
    const client = t.client();
    const promise = client.orders.get(ORDER_ID);
    expect(promise).toBeInstanceOf(Promise);
    expect(Object.getPrototypeOf(promise)).toBe(Promise.prototype); // a native promise: await costs nothing more
    expect(APIPromise.is(promise)).toBe(true);
    expect(await promise).toMatchObject({ order_id: ORDER_ID });

    const got = await client.orders.get(ORDER_ID).withResponse();
    expect(got.data).toMatchObject({ order_id: ORDER_ID, status: 'open' });
    expect(got).toMatchObject({ requestId: 'req_body', status: 200 });
    expect(got.headers['x-request-id']).toBe('req_header');
    expect(got.headers['content-type']).toMatch(/json/);

    const created = await client.orders.create({ location_id: LOCATION_ID, total_cents: 100 }).withResponse();
    expect(created).toMatchObject({ status: 201, requestId: 'req_created', data: { order_id: ORDER_ID } });
  });

  it('headers are lower-case with credentials redacted (the token, the client secret, cookies)', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', ({ request }) =>
        HttpResponse.json(order, {
          headers: {
            'X-Echo-Auth': request.headers.get('authorization') ?? '',
            'X-Echo-Token': (request.headers.get('authorization') ?? '').slice(7),
            'X-Echo-Secret': `secret is ${TEST_CLIENT_SECRET}`,
            'Set-Cookie': 'session=abc',
            'X-Plain': 'visible',
          },
        }),
      ),
    );
    const { headers } = await t.client().orders.get(ORDER_ID).withResponse();
    // Positive control: the server really echoed the credentials.
    expect(Object.keys(headers)).toEqual(
      expect.arrayContaining(['x-echo-auth', 'x-echo-token', 'x-echo-secret']),
    );
    expect(headers['x-plain']).toBe('visible');
    expect(headers['set-cookie']).toBe('[REDACTED]');
    const all = JSON.stringify(headers);
    expect(all).not.toContain(TOKEN_PREFIX);
    expect(all).not.toContain(TEST_CLIENT_SECRET);
    expect(Object.keys(headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it("a keyed payment's withResponse() is its request's, credentials redacted, through the intent layer", async () => {
    t.use(
      http.post('*/pos/v1/orders/:id/payments', ({ request }) =>
        HttpResponse.json(paymentBody, {
          status: 201,
          headers: { 'X-Request-Id': 'req_paid', 'X-Echo-Auth': request.headers.get('authorization') ?? '' },
        }),
      ),
    );
    const client = t.client();
    const paid = await client.payments
      .create(ORDER_ID, { method: 'card', amount_cents: 12_500 }, { idempotencyKey: 'charge-with-response' })
      .withResponse();
    expect(paid).toMatchObject({
      status: 201,
      requestId: 'req_paid',
      data: { payment_id: paymentBody.payment_id },
    });
    // Positive control: the server echoed the bearer token, and the client's redaction hid it.
    expect(Object.keys(paid.headers)).toContain('x-echo-auth');
    expect(JSON.stringify(paid.headers)).not.toContain(TOKEN_PREFIX);
  });

  it('a failed call rejects withResponse() with the same error class as awaiting it', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => apiError(404, 'order_not_found')));
    const client = t.client();
    expect(await caught(client.orders.get(ORDER_ID).withResponse())).toBeInstanceOf(NotFoundError);
    expect(await caught(client.orders.get(ORDER_ID))).toBeInstanceOf(NotFoundError);
    // An invalid argument rejects (it does not throw synchronously), before anything is sent.
    const bad = client.orders.get('../admin');
    expect(APIPromise.is(bad)).toBe(true);
    expect(await caught(bad.withResponse())).toMatchObject({ name: 'RequestValidationError' });
  });

  it('locations.list keeps paging and gives the first page with withResponse()', async () => {
    t.use(
      http.get('*/pos/v1/locations', ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset') ?? 0);
        return HttpResponse.json(
          { items: offset < 2 ? [{ ...location, name: `L${offset}` }] : [], total: 2, limit: 1, offset },
          { headers: { 'X-Request-Id': `req_page_${offset}` } },
        );
      }),
    );
    const client = t.client();
    const { data, requestId, status } = await client.locations.list({ limit: 1 }).withResponse();
    expect(data.items.map((l) => l.name)).toEqual(['L0']);
    expect({ requestId, status }).toEqual({ requestId: 'req_page_0', status: 200 });
    const names: string[] = [];
    for await (const l of client.locations.list({ limit: 1 })) names.push(l.name);
    expect(names).toEqual(['L0', 'L1']);
  });
});
