import { afterAll } from 'vitest';
import type { MockServer, MockService, MockServiceOptions } from '../../src/testing/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';

/** A raw HTTP answer from the mock. */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test code reads arbitrary JSON fields
  body: any;
  text: string;
}

/** A mock on a loopback server, reset before each test, with raw-HTTP helpers. */
export interface MockHarness {
  mock: MockService;
  server: MockServer;
  /** Mints an access token for a client (default: the first partner's all-scopes client). */
  token(client?: { clientId: string; clientSecret: string }, scope?: string): Promise<string>;
  /** Calls the mock with a bearer token (`token: null` sends none). */
  call(
    method: string,
    path: string,
    init?: { token?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<Answer>;
  /** The first partner's ids. */
  a(): { partnerId: string; location: string };
}

export async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export async function mintToken(
  base: string,
  client: { clientId: string; clientSecret: string },
  scope?: string,
): Promise<Answer> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (scope !== undefined) form.set('scope', scope);
  return read(
    await fetch(`${base}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    }),
  );
}

/** Starts one mock per test file on loopback; `reset()` before each test. */
export function useMock(options: MockServiceOptions = {}): MockHarness {
  const loop = loopbackMock(options);
  // Registered after loopbackMock's hooks, so it runs before the server closes (last in, first out).
  afterAll(() => loop.mock.webhooks.flush());
  const harness = {
    get mock() {
      return loop.mock;
    },
    get server() {
      return loop.server;
    },
  } as MockHarness;
  harness.token = async (client = harness.mock.credentials, scope) => {
    const answer = await mintToken(harness.server.authUrl, client, scope);
    if (answer.status !== 200) throw new Error(`token: ${answer.status} ${answer.text}`);
    return answer.body.access_token as string;
  };
  harness.call = async (method, path, init = {}) => {
    const token = init.token === undefined ? await harness.token() : init.token;
    const headers: Record<string, string> = { ...init.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] = 'application/json';
    }
    return read(await fetch(`${harness.server.baseUrl}${path}`, { method, headers, body }));
  };
  harness.a = () => {
    const p = harness.mock.fixtures.partners[0]!;
    return { partnerId: p.partnerId, location: p.locations.payments };
  };
  return harness;
}

/** Creates an order at the first partner's payments location; returns its id. */
export async function newOrder(h: MockHarness, body: Record<string, unknown> = {}): Promise<string> {
  const answer = await h.call('POST', '/pos/v1/orders', {
    body: { location_id: h.a().location, total_cents: 10_000, ...body },
  });
  if (answer.status !== 201) throw new Error(`order: ${answer.status} ${answer.text}`);
  return answer.body.order_id as string;
}

/** Creates a pending payment; returns the order and payment ids. */
export async function newPayment(
  h: MockHarness,
  amount = 10_000,
  total = 10_000,
): Promise<{ orderId: string; paymentId: string }> {
  const orderId = await newOrder(h, { total_cents: total });
  const answer = await h.call('POST', `/pos/v1/orders/${orderId}/payments`, {
    body: { method: 'card', amount_cents: amount },
  });
  if (answer.status !== 201) throw new Error(`payment: ${answer.status} ${answer.text}`);
  return { orderId, paymentId: answer.body.payment_id as string };
}

/** A settled payment (created, approved, settled by the processor controls). */
export async function settledPayment(h: MockHarness, amount = 10_000) {
  const ids = await newPayment(h, amount, amount);
  h.mock.processor.approve(ids.paymentId);
  h.mock.processor.settle(ids.paymentId);
  return ids;
}

/** The path of a payment. */
export const paymentPath = (ids: { orderId: string; paymentId: string }) =>
  `/pos/v1/orders/${ids.orderId}/payments/${ids.paymentId}`;

/** The kinds of the events the mock emitted so far. */
export const eventKinds = (h: MockHarness) => h.mock.webhooks.events().map((e) => e.event_kind);
