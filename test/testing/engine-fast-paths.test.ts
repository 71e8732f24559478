// The engine's shortcuts answer as the long way would: the path of a plain request target without
// parsing the URL, the Date header and timestamps formatted once per second or millisecond.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { incomingFromNode } from '../../src/testing/engine/incoming.js';
import { compileRoutes } from '../../src/testing/engine/route-match.js';
import { useMock } from './helpers.js';

const fakeRequest = (url: string, host: string) =>
  ({ method: 'GET', url, headers: { host } }) as unknown as IncomingMessage;

describe('the path of a request target', () => {
  const targets = [
    '/pos/v1/orders',
    '/pos/v1/orders/',
    '/pos/v1/orders?limit=5&cursor=a/b',
    '/pos/v1/./orders',
    '/pos/v1/x/../orders',
    '/pos/v1/%6Frders',
    '/pos/v1/a\\b',
    '/pos/v1/ünï',
    '/pos/v1/a b',
    '//pos/v1',
    '/pos/v1/orders#frag',
    '/',
  ];
  const hosts = ['127.0.0.1:4010', 'localhost', '[::1]:4010', 'LOCALHOST:80', 'localhost:99999', 'a b'];

  it('is what the URL parser gives, and is left to the engine when the URL does not parse', () => {
    for (const host of hosts) {
      for (const target of targets) {
        const incoming = incomingFromNode(fakeRequest(target, host), new Uint8Array(0), '127.0.0.1');
        if (!URL.canParse(incoming.url)) {
          expect(incoming.path, `${host} ${target}`).toBeUndefined();
          continue;
        }
        const parsed = new URL(incoming.url).pathname;
        expect(incoming.path ?? parsed, `${host} ${target}`).toBe(parsed);
      }
    }
  });

  it('is known without parsing for a plain target on a valid host', () => {
    const incoming = incomingFromNode(
      fakeRequest('/pos/v1/locations/loc_1?x=1', '127.0.0.1:4010'),
      new Uint8Array(0),
      '127.0.0.1',
    );
    expect(incoming.path).toBe('/pos/v1/locations/loc_1');
  });
});

describe('route lookups, remembered', () => {
  const find = compileRoutes([
    { method: 'GET', pattern: '/pos/v1/orders/:order_id' },
    { method: 'POST', pattern: '/pos/v1/orders' },
  ]);

  it('give the same answer the first time, the second time and past the limit', () => {
    for (let i = 0; i < 2_500; i++) {
      const id = `ord_${i % 1_500}`;
      const found = find('GET', `/pos/v1/orders/${id}`);
      expect(found.route?.pattern).toBe('/pos/v1/orders/:order_id');
      expect(found.params).toEqual({ order_id: id });
    }
    expect(find('POST', '/pos/v1/orders').route?.method).toBe('POST');
    expect(find('DELETE', '/pos/v1/orders')).toMatchObject({ route: undefined, allowed: ['POST'] });
    expect(find('DELETE', '/pos/v1/orders')).toMatchObject({ route: undefined, allowed: ['POST'] });
    expect(find('GET', '/pos/v1/nothing').allowed).toEqual([]);
  });

  it('share params that no handler can change, and keep refusing a malformed escape', () => {
    const { params } = find('GET', '/pos/v1/orders/ord_shared');
    expect(Object.isFrozen(params)).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect(() => find('GET', '/pos/v1/orders/%E0%A4%A')).toThrow(/malformed percent-escape/);
    }
  });
});

describe('over loopback', () => {
  const h = useMock({ clock: { start: '2026-03-01T10:00:00.400Z' } });

  /** A GET with the target sent as written (fetch would normalize it). */
  const rawGet = (target: string, token: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${h.server.baseUrl}${target}`,
        { headers: { authorization: `Bearer ${token}` } },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('a dot segment reaches the same route as the plain path; an escaped letter stays escaped', async () => {
    const token = await h.token();
    const { location } = h.a();
    const plain = await rawGet(`/pos/v1/locations/${location}`, token);
    expect(plain.status).toBe(200);
    for (const target of [`/pos/v1/x/../locations/${location}`, `/pos/v1/./locations/${location}`]) {
      const other = await rawGet(target, token);
      expect(other, target).toEqual(plain);
    }
    // As the URL parser leaves it: `%6C` is not `l`, so no route has this path.
    const escaped = await rawGet(`/pos/v1/%6Cocations/${location}`, token);
    expect(escaped.status).toBe(404);
    expect(JSON.parse(escaped.body).message).toContain('/pos/v1/%6Cocations/');
  });

  it('Date follows the mock clock second by second; created_at follows it to the millisecond', async () => {
    const token = await h.token();
    const { location } = h.a();
    const date = async () =>
      (await h.call('GET', `/pos/v1/locations/${location}`, { token })).headers.get('date');
    const order = async () =>
      (
        await h.call('POST', '/pos/v1/orders', {
          token,
          body: { location_id: location, total_cents: 100 },
        })
      ).body.created_at as string;
    expect(await date()).toBe('Sun, 01 Mar 2026 10:00:00 GMT');
    const first = await order();
    h.mock.clock.advance(599);
    expect(await date()).toBe('Sun, 01 Mar 2026 10:00:00 GMT');
    const second = await order();
    expect(second).not.toBe(first);
    expect(Date.parse(second) - Date.parse(first)).toBe(599);
    h.mock.clock.advance(1);
    expect(await date()).toBe('Sun, 01 Mar 2026 10:00:01 GMT');
    expect(await order()).toBe(new Date(h.mock.clock.now()).toISOString());
  });
});
