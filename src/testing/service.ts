import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'msw';
import { SCOPES } from '../schemas/common.js';
import type { KnownEventKind } from '../schemas/events.js';
import { TokenAuthority } from './auth.js';
import { scheduleAutoProcess } from './auto-process.js';
import { createClock, type MockClock } from './clock.js';
import { pinnedEndpoints } from './control/pins.js';
import { createControlHandler, isControlPath } from './control/serve.js';
import { type MockCore, type MockServiceOptions, resolveOptions } from './core.js';
import { type Delivery, Dispatcher, type EventEnvelope } from './dispatcher.js';
import { FaultQueue, type FaultSpec } from './faults.js';
import {
  type FixtureClient,
  type MockFixtures,
  makeLocation,
  seedFixtures,
  storeClient,
} from './fixtures.js';
import { type LoopbackServer, serveFetch } from './http-server.js';
import { mswHandlers } from './msw.js';
import { createProcessor, expireDuePayments, type MockProcessor } from './processor.js';
import { MockControlError } from './respond.js';
import { createDispatch } from './router.js';
import { buildRoutes } from './routes/index.js';
import { MockState, type RateTier } from './state.js';
import { registerControl } from './webhook-control.js';

/**
 * The mock's webhook side: control-side registration, deliveries, dead letters, replay.
 *
 * @example
 * const { signing_secret } = mock.webhooks.register({ partnerId, url: 'http://127.0.0.1:8123/hooks' });
 * mock.processor.approve(paymentId);
 * await mock.webhooks.flush();
 */
export interface MockWebhooks {
  /** Registers an endpoint for a partner; `http://` is allowed for loopback receivers. Returns it with its secret. */
  register(input: { partnerId: string; url: string; eventKinds?: KnownEventKind[] }): {
    webhook_endpoint_id: string;
    signing_secret: string;
    url: string;
    event_kinds: KnownEventKind[] | null;
  };
  /** Every delivery (one per event and endpoint), with its attempts. */
  deliveries(): Delivery[];
  /** Deliveries that failed all 6 attempts. */
  deadLetters(): Delivery[];
  /** Delivers a delivery's event again, with the same body and `event_id`. */
  replay(deliveryId: string): Delivery;
  /** Waits until no delivery attempt is in flight. */
  flush(): Promise<void>;
  /** Every event the mock emitted, whether or not an endpoint was registered. */
  events(): EventEnvelope[];
}

/**
 * A mock listening on loopback.
 *
 * @example
 * const server = await mock.listen();
 * const client = new PaymentsClient({ ...mock.credentials, baseUrl: server.baseUrl, authUrl: server.authUrl });
 */
export interface MockServer extends LoopbackServer {
  /** The API root to give a client as `baseUrl`. */
  baseUrl: string;
  /** The token issuer root to give a client as `authUrl`. */
  authUrl: string;
}

/**
 * The mock of the Partner Payments Service: see docs/testing.md.
 *
 * @example
 * const mock: MockService = createMockService();
 * mock.processor.approve(paymentId);
 * mock.clock.advance(60_000);
 */
export interface MockService {
  /**
   * msw handlers answering `*\/oauth2/token`, `*\/pos/v1/*` and `*\/admin/v1/*` on any origin: a thin
   * adapter over {@link MockService.fetch}. Only this needs msw (an optional peer); reading it without
   * msw installed throws an error that says `npm install -D msw`.
   */
  readonly handlers: RequestHandler[];
  readonly clock: MockClock;
  readonly fixtures: MockFixtures;
  /** The first partner's all-scopes client. */
  readonly credentials: { clientId: string; clientSecret: string };
  /** Options for a `PaymentsClient` against this mock (in-process origins by default). */
  clientOptions(origin?: string): {
    clientId: string;
    clientSecret: string;
    baseUrl: string;
    authUrl: string;
  };
  readonly processor: MockProcessor;
  readonly webhooks: MockWebhooks;
  /** Makes the next matching request(s) fail with the given status. */
  failNext(fault: FaultSpec): void;
  /** Adds `n` payments-enabled locations to a partner; returns their ids. */
  seedLocations(partnerId: string, n: number): string[];
  /** Adds a machine client. @default scopes every scope, tier 'standard' */
  addClient(input: { partnerId: string; scopes?: string[]; tier?: RateTier }): FixtureClient;
  /** Revokes a machine client: minting and its existing tokens answer 401 `client_revoked`. */
  revokeClient(clientId: string): void;
  /** Mints a POS user-pool token (accepted by order creation only). */
  issueUserToken(input: { partnerId: string; userId?: string }): Promise<string>;
  /** While on, every request answers 503 `service_unavailable`. */
  setMaintenance(on: boolean): void;
  /** The engine: answers one request directly, without msw (the handlers and `listen()` call it). */
  fetch(request: Request): Promise<Response>;
  /** Serves the mock on a real HTTP server on 127.0.0.1. */
  listen(options?: { port?: number; host?: string }): Promise<MockServer>;
  /** Forgets every order, token bucket, fault and delivery and seeds the fixtures again. */
  reset(): void;
  /** Stops the real-time ticker (real-time clock only). */
  close(): void;
}

/**
 * Creates the stateful mock of the whole service, for msw in-process tests or a loopback server.
 *
 * @example
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = new PaymentsClient(mock.clientOptions());
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const opts = resolveOptions(options);
  const clock = createClock(options.clock);
  const faults = new FaultQueue();
  let state = new MockState();
  let fixtures = opts.seed ? seedFixtures(state, clock.iso()) : emptyFixtures();
  const dispatcher = new Dispatcher(clock, () => state, opts.webhookTimeoutMs);
  const core: MockCore = {
    get state() {
      return state;
    },
    clock,
    authority: new TokenAuthority(),
    options: opts,
    buckets: new Map(),
    emit: (event) => dispatcher.emit(event),
    onCreated: (kind, id) => {
      if (opts.autoProcess) scheduleAutoProcess(opts.autoProcess, processor, () => state, kind, id);
    },
    maintenance: false,
  };
  const processor = createProcessor(core);
  const tick = () => {
    expireDuePayments(core, processor);
    dispatcher.runDue();
  };
  clock.onAdvance(tick);
  const ticker = options.clock?.realTime ? setInterval(tick, 1000).unref() : null;
  const routes = buildRoutes(core, processor);
  const dispatch = createDispatch(core, routes, faults, tick);
  let handlers: RequestHandler[] | undefined;
  const mock: MockService = {
    get handlers() {
      handlers ??= mswHandlers(dispatch);
      return handlers;
    },
    clock,
    get fixtures() {
      return fixtures;
    },
    get credentials() {
      const main = fixtures.partners[0]?.clients[0];
      return { clientId: main?.clientId ?? '', clientSecret: main?.clientSecret ?? '' };
    },
    clientOptions(origin) {
      return {
        ...mock.credentials,
        baseUrl: origin ?? 'https://api.payments.test',
        authUrl: origin ?? 'https://auth.payments.test',
      };
    },
    processor,
    webhooks: {
      register: (input) => registerControl(state, input, clock.iso()),
      deliveries: () => dispatcher.list(),
      deadLetters: () => dispatcher.list().filter((d) => d.status === 'dead_letter'),
      replay: (id) => dispatcher.replay(id),
      flush: () => dispatcher.flush(),
      events: () => dispatcher.emitted(),
    },
    failNext: (fault) => faults.add(fault),
    seedLocations(partnerId, n) {
      const org = [...state.locations.values()].find((l) => l.partner_id === partnerId)?.organization_id;
      const start = state.locationsOf(partnerId).length + 1;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const l = makeLocation(partnerId, org ?? randomUUID(), randomUUID(), start + i, clock.iso());
        state.locations.set(l.location_id, l);
        ids.push(l.location_id);
      }
      state.partners.add(partnerId);
      return ids;
    },
    addClient: ({ partnerId, scopes = [...SCOPES], tier = 'standard' }) =>
      storeClient(state, partnerId, {
        clientId: `mock-client-${randomUUID()}`,
        clientSecret: `mock-secret-${randomUUID()}`,
        scopes,
        tier,
      }),
    revokeClient(clientId) {
      const client = state.clients.get(clientId);
      if (!client) throw new MockControlError(`no client ${clientId} in the mock`);
      client.revoked = true;
    },
    issueUserToken: ({ partnerId, userId = randomUUID() }) =>
      core.authority.sign(
        { pool: 'pos_user', partner_id: partnerId, scope: 'svc/payments:create svc/payments:read' },
        userId,
        clock.now(),
        opts.tokenTtlSeconds,
      ),
    setMaintenance(on) {
      core.maintenance = on;
    },
    fetch: (request) => dispatch(request),
    async listen(listenOptions = {}) {
      // The control API and dashboard (`/_mock/...`) are served on the loopback server only.
      const control = createControlHandler({
        mock,
        state: () => core.state,
        pinnedEndpoints: () => pinnedEndpoints(mock),
      });
      const server = await serveFetch(
        (request) => (isControlPath(new URL(request.url).pathname) ? control(request) : dispatch(request)),
        listenOptions,
      );
      return { ...server, baseUrl: server.url, authUrl: server.url };
    },
    reset() {
      state = new MockState();
      fixtures = opts.seed ? seedFixtures(state, clock.iso()) : emptyFixtures();
      core.buckets.clear();
      core.maintenance = false;
      faults.clear();
      dispatcher.reset();
    },
    close() {
      if (ticker) clearInterval(ticker);
    },
  };
  return mock;
}

function emptyFixtures(): MockFixtures {
  const none = { clientId: '', clientSecret: '', scopes: [], tier: 'standard' as const };
  return { partners: [], revokedClient: none, lowTierClient: none, chargeOnlyClient: none };
}
