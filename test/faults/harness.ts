/**
 * Shared set-up of the fault tests and the soak test: the shipped mock on a loopback server, the
 * dispatcher that plays the refused connection, and clients wired to both that record what they
 * emit. Faults are the mock's own (`failNext`, matched by the call's `x-call-id` header); side
 * effects are read from the mock's records.
 */
import { PaymentsClient } from '../../src/index.js';
import type { MockService } from '../../src/testing/index.js';
import { serveMock } from '../helpers/loopback-mock.js';
import { type CallKind, NEEDS, type Prepared, TOTAL_CENTS } from './calls.js';
import { type FaultName, mockFault } from './faults.js';
import { faultDispatcher } from './refused-dispatcher.js';

/** What the mock did for one call, over all its attempts. */
export interface SideEffects {
  orders: number;
  payments: number;
  refunds: number;
  voids: number;
  /** Attempts that reached the mock. */
  attempts: number;
  /** The distinct `Idempotency-Key` values the call's attempts carried. */
  idempotencyKeys: Set<string>;
}

export interface FaultHarness {
  mock: MockService;
  /** Tokens the mock minted over loopback. */
  readonly mints: number;
  /** A client with client credentials against the mock, counting what it emits. */
  client(options: { timeoutMs: number; maxRetries?: number }): RecordingClient;
  /** Creates what a call of `kind` needs on the mock, outside any fault. */
  prepare(kind: CallKind, callId: string): Promise<Prepared>;
  /** Arms `fault` for the first `attempts` attempts of call `callId` (`refused`: the dispatcher's). */
  inject(fault: FaultName | undefined, callId: string, attempts: number): void;
  /** Attempts of call `callId` that reached the loopback server so far. */
  arrivals(callId: string): number;
  /** Reads the mock's records once; the function gives the side effects of one prepared call. */
  ledger(): (ids: Prepared) => SideEffects;
  close(): Promise<void>;
}

export interface RecordingClient {
  client: PaymentsClient;
  /** Attempts sent to the API (the `request` events of `/pos/v1` paths). */
  attempts(): number;
  /** Tokens minted (the `token` events with `action: 'minted'`). */
  mints(): number;
}

const countBy = <T>(items: T[], key: (item: T) => string | undefined) => {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
};

export async function startHarness(): Promise<FaultHarness> {
  const seen = new Map<string, { attempts: number; keys: Set<string> }>();
  let mints = 0;
  const served = await serveMock({
    // 5,000 soak calls from one client would meet the per-client rate limit, which is not under test.
    rateLimits: false,
    front: (request, mock) => {
      if (new URL(request.url).pathname === '/oauth2/token') mints++;
      const callId = request.headers.get('x-call-id');
      if (callId) {
        const entry = seen.get(callId) ?? { attempts: 0, keys: new Set<string>() };
        seen.set(callId, entry);
        entry.attempts++;
        const key = request.headers.get('idempotency-key');
        if (key) entry.keys.add(key);
      }
      // A reset fault rejects `mock.fetch`; the loopback server then drops the connection.
      return mock.fetch(request).catch((error: unknown) => {
        if (error instanceof TypeError) return Response.error();
        throw error;
      });
    },
  });
  const { mock } = served;
  const refused = await faultDispatcher();
  const locationId = mock.fixtures.partners[0]!.locations.payments;
  let setupToken: Promise<string> | undefined;

  async function api(method: string, path: string, body?: unknown): Promise<Record<string, string>> {
    setupToken ??= mock
      .fetch(
        new Request('https://auth.payments.test/oauth2/token', {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: mock.credentials.clientId,
            client_secret: mock.credentials.clientSecret,
          }),
        }),
      )
      .then(async (r) => ((await r.json()) as { access_token: string }).access_token);
    const response = await mock.fetch(
      new Request(`https://api.payments.test${path}`, {
        method,
        headers: { authorization: `Bearer ${await setupToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (!response.ok)
      throw new Error(`set-up ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  }

  return {
    mock,
    get mints() {
      return mints;
    },
    client({ timeoutMs, maxRetries = 2 }) {
      const client = new PaymentsClient({
        ...served.clientOptions(),
        scopes: ['payments:create', 'payments:read', 'payments:refund'],
        timeoutMs,
        maxRetries,
        // The fault table is the call path's own policy; reconciliation is tested in test/intents.
        reconcile: 'off',
        dispatcher: refused.dispatcher,
      });
      let attempts = 0;
      let minted = 0;
      client.on('request', (event) => {
        if (event.path.startsWith('/pos/v1')) attempts++;
      });
      client.on('token', (event) => {
        if (event.action === 'minted') minted++;
      });
      return { client, attempts: () => attempts, mints: () => minted };
    },
    async prepare(kind, callId) {
      const ids: Prepared = { callId, locationId, orderId: '', paymentId: '' };
      if (NEEDS[kind] === 'nothing') return ids;
      const order = { location_id: locationId, total_cents: TOTAL_CENTS, description: `set-up ${callId}` };
      ids.orderId = (await api('POST', '/pos/v1/orders', order)).order_id!;
      if (NEEDS[kind] === 'order') return ids;
      const payment = { method: 'card', amount_cents: TOTAL_CENTS };
      ids.paymentId = (await api('POST', `/pos/v1/orders/${ids.orderId}/payments`, payment)).payment_id!;
      if (NEEDS[kind] === 'settled payment') {
        mock.processor.approve(ids.paymentId);
        mock.processor.settle(ids.paymentId);
      }
      return ids;
    },
    inject(fault, callId, attempts) {
      if (fault && fault !== 'refused') mock.failNext(mockFault(fault, callId, attempts));
    },
    arrivals(callId) {
      return seen.get(callId)?.attempts ?? 0;
    },
    ledger() {
      const { orders, payments, refunds } = mock.snapshot();
      const created = new Map<string, string[]>();
      for (const order of orders) {
        if (order.description)
          created.set(order.description, [...(created.get(order.description) ?? []), order.order_id]);
      }
      const paymentsOf = countBy(payments, (p) => p.order_id);
      const refundsOf = countBy(refunds, (r) => r.order_id);
      const voided = mock.webhooks.events().filter((e) => e.event_kind === 'payment.voided');
      const voidsOf = countBy(voided, (e) => e.resource.order_id as string | undefined);
      return (ids) => {
        const own = created.get(ids.callId) ?? [];
        const touched = ids.orderId ? [ids.orderId, ...own] : own;
        const sum = (counts: Map<string, number>) => touched.reduce((n, id) => n + (counts.get(id) ?? 0), 0);
        const calls = seen.get(ids.callId);
        return {
          orders: own.length,
          // The set-up's own payment is not the call's.
          payments: sum(paymentsOf) - (ids.paymentId ? 1 : 0),
          refunds: sum(refundsOf),
          voids: sum(voidsOf),
          attempts: calls?.attempts ?? 0,
          idempotencyKeys: calls?.keys ?? new Set(),
        };
      };
    },
    async close() {
      await served.stop();
      await refused.close();
    },
  };
}
