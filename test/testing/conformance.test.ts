import { describe, expect, it } from 'vitest';
import { RefundEventResource } from '../../src/schemas/zod/events.js';
import { newPayment, paymentPath, read, settledPayment, useMock } from './helpers.js';

const h = useMock();

describe('deviation 4: every answer carries a real request id', () => {
  it.each([
    ['a malformed percent-escape', '/pos/v1/orders/%E0%A4%A', 400, 'invalid_request'],
    ['an unknown API root', '/nope/v1/things', 404, 'not_found'],
    ['an unknown path under a known root', '/pos/v1/nothing-here', 404, 'not_found'],
  ])('%s: X-Request-Id and the body name the same req_ id', async (_why, path, status, code) => {
    const answer = await read(await fetch(`${h.server.baseUrl}${path}`));
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(code);
    expect(answer.body.request_id).toMatch(/^req_[0-9a-f]{16}$/);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });

  it('in process too: mock.fetch answers an unknown root with a request id', async () => {
    const answer = await read(await h.mock.fetch(new Request('https://api.payments.test/elsewhere')));
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });
});

describe('deviation 2: writes answer 201 (spec 1.6)', () => {
  it('void answers 201, and so does a repeated void', async () => {
    const ids = await newPayment(h);
    expect((await h.call('POST', `${paymentPath(ids)}/void`)).status).toBe(201);
    expect((await h.call('POST', `${paymentPath(ids)}/void`)).status).toBe(201);
  });

  it('launch-exchange answers 201', async () => {
    const created = await h.call('POST', '/pos/v1/launch-tokens', { body: { location_id: h.a().location } });
    const exchanged = await h.call('POST', '/pos/v1/public/launch-exchange', {
      token: null,
      body: { launch_token: created.body.launch_token },
    });
    expect(exchanged.status).toBe(201);
  });
});

describe('deviation 3: location search is fuzzy (typo tolerant)', () => {
  const names = async (search: string) =>
    (await h.call('GET', `/pos/v1/locations?limit=200&search=${encodeURIComponent(search)}`)).body.items.map(
      (l: { name: string }) => l.name,
    ) as string[];

  it('finds names with a typo in a word: flagshp, Austn, prtner flagship', async () => {
    expect(await names('flagshp')).toEqual(['Partner A Flagship']);
    expect(await names('prtner flagship')).toEqual(['Partner A Flagship']);
    const austin = await names('Austn');
    expect(austin.length).toBeGreaterThan(0);
    expect(austin.every((n) => n.startsWith('Austin '))).toBe(true);
  });

  it('ranks exact words before typos, and words before inner parts; short words need to be exact', async () => {
    h.mock.seedLocations(h.a().partnerId, 0);
    expect(await names('zzz')).toEqual([]);
    expect(await names('austin store 8')).toEqual(expect.arrayContaining(['Austin Store 8']));
    expect((await names('austin store 8'))[0]).toBe('Austin Store 8');
  });
});

describe('user-hit bugs', () => {
  it('registers an http://127.0.0.1 receiver through the API (loopback only)', async () => {
    const path = `/admin/v1/partners/${h.a().partnerId}/webhook-endpoints`;
    const ok = await h.call('POST', path, { body: { url: 'http://127.0.0.1:9/hooks' } });
    expect(ok.status).toBe(201);
    const refused = await h.call('POST', path, { body: { url: 'http://example.com/hooks' } });
    expect([refused.status, refused.body.error]).toEqual([422, 'validation_error']);
  });

  it('refund events carry the typed refund fields', async () => {
    const ids = await settledPayment(h);
    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 300 } });
    h.mock.processor.confirmRefund(refund.body.refund_id);
    const event = h.mock.webhooks.events().find((e) => e.event_kind === 'payment.refunded')!;
    expect(RefundEventResource.parse(event.resource)).toMatchObject({
      refund_id: refund.body.refund_id,
      refund_status: 'approved',
      refund_amount_cents: 300,
      status: 'settled',
    });
  });
});

describe('deviations 5 and 6: the OpenAPI document describes every route and answer', () => {
  const doc = async () => (await h.call('GET', '/pos/v1/.well-known/openapi.json', { token: null })).body;

  it('documents the hosted page 400/410 as HTML, as the page answers them', async () => {
    const paths = (await doc()).paths;
    for (const status of ['400', '410']) {
      const get = paths['/pos/v1/public/hosted-checkout'].get.responses[status];
      expect(Object.keys(get.content)).toEqual(['text/html']);
      expect(Object.keys(paths['/pos/v1/public/hosted-checkout'].post.responses[status].content)).toEqual([
        'text/html',
      ]);
    }
    const answer = await read(await fetch(`${h.server.baseUrl}/pos/v1/public/hosted-checkout?token=nope`));
    expect([answer.status, answer.headers.get('content-type')]).toEqual([400, 'text/html; charset=utf-8']);
  });

  it('has the routes and answers the audit found missing', async () => {
    const { paths } = await doc();
    expect(Object.keys(paths['/pos/v1/launch-tokens'].post.responses)).toContain('422');
    expect(Object.keys(paths['/pos/v1/public/launch-exchange'].post.responses)).toContain('422');
    expect(paths['/pos/v1/public/launch-exchange'].post.responses['201']).toBeDefined();
    expect(paths['/pos/v1/orders/{order_id}/payments/{payment_id}/void'].post.responses['201']).toBeDefined();
    expect(paths['/pos/v1/.well-known/openapi.json'].get).toBeDefined();
    expect(paths['/pos/v1/.well-known/asyncapi.json'].get).toBeDefined();
    expect(paths['/pos/v1/public/hosted-checkout'].post.responses['303']).toBeDefined();
    expect(paths['/pos/v1/public/launch'].get).toBeDefined();
    expect(paths['/oauth2/token'].post).toBeDefined();
    for (const item of Object.values(paths) as Record<string, { responses: Record<string, unknown> }>[]) {
      for (const operation of Object.values(item)) expect(Object.keys(operation.responses)).toContain('405');
    }
  });
});
