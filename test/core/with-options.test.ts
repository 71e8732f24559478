import { HttpResponse, http } from 'msw';
import { afterEach, expect, it, vi } from 'vitest';
import { caught } from '../helpers/caught.js';
import { ORDER_ID, openOrderBody } from '../helpers/fixtures.js';
import { apiError } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const order = openOrderBody;

describeTransports('withOptions', (t) => {
  afterEach(() => vi.restoreAllMocks());

  it('a derived client shares the token and its mint: deriving mints nothing, both use one token', async () => {
    t.use(http.get('*/pos/v1/orders/:id', () => HttpResponse.json(order)));
    const parent = t.client();
    const derived = parent.withOptions({ maxRetries: 0, defaultHeaders: { 'x-team': 'risk' } });
    expect(t.requests()).toHaveLength(0); // deriving sent nothing
    await Promise.all([
      parent.orders.get(ORDER_ID),
      derived.orders.get(ORDER_ID),
      derived.orders.get(ORDER_ID),
    ]);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
    const gets = t.requests('GET');
    expect(new Set(gets.map((r) => r.headers.authorization)).size).toBe(1);
    expect(gets.filter((r) => r.headers['x-team'] === 'risk')).toHaveLength(2);
    // A grandchild still shares it.
    await derived.withOptions({ timeoutMs: 5_000 }).orders.get(ORDER_ID);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
  });

  it('overrides apply to the derived client only; events reach its listeners, then its parent’s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      http.get('*/pos/v1/orders/:id', () =>
        apiError(503, 'service_unavailable', 'busy', { headers: { 'Retry-After': '0' } }),
      ),
    );
    const parent = t.client({ maxRetries: 2 });
    const derived = parent.withOptions({ maxRetries: 0 });
    const parentEnds: number[] = [];
    const derivedEnds: number[] = [];
    parent.on('end', (e) => parentEnds.push(e.attempts));
    derived.on('end', (e) => derivedEnds.push(e.attempts));
    await caught(derived.orders.get(ORDER_ID));
    await caught(parent.orders.get(ORDER_ID));
    expect(derivedEnds).toEqual([1]);
    expect(parentEnds).toEqual([1, 3]);
  });

  it('refuses options that would need another pool or other credentials', () => {
    const parent = t.client();
    // @ts-expect-error baseUrl is not an override: it would be another service.
    expect(() => parent.withOptions({ baseUrl: 'https://other.example.com' })).toThrow(/baseUrl/);
    expect(() => parent.withOptions({ maxRetries: -1 })).toThrow(/maxRetries/);
  });
});
