// `createMockService()`: wires the mock's state, clock, processor, token authority, routes, faults
// and webhook deliverer into a MockService, for msw handlers, `fetch` or a loopback server.
import { randomUUID } from 'node:crypto';
import { WAIT_CLOCK, type WaitClock } from '../internal/wait-clock.js';
import { SCOPES } from '../schemas/common.js';
import { clientWaitClock } from './client-clock.js';
import { createClock } from './clock.js';
import { pinnedEndpoints } from './control/pins.js';
import { createControlHandler, isControlPath } from './control/serve.js';
import { renderDashboard } from './dashboard/page.js';
import { scheduleAutoProcess } from './domain/auto-process.js';
import { type MockFixtures, makeLocation, seedFixtures, storeClient } from './domain/fixtures.js';
import { createProcessor } from './domain/processor.js';
import { snapshot } from './domain/snapshot.js';
import { incomingFromRequest } from './engine/incoming.js';
import type { MockCore } from './engine/mock-core.js';
import { MockControlError, toResponse } from './engine/respond.js';
import { createDispatch } from './engine/router.js';
import { TokenAuthority } from './engine/token-authority.js';
import { playFault, resetCause } from './faults/fault-play.js';
import { FaultQueue } from './faults/fault-queue.js';
import type { MockService } from './mock-service.js';
import { type MockServiceOptions, resolveOptions } from './options.js';
import { buildRoutes } from './routes/index.js';
import { serveEngine } from './servers/http-server.js';
import { type MswHandler, mswHandlers } from './servers/msw.js';
import { MockState } from './state.js';
import { WebhookDeliverer } from './webhooks/deliverer.js';
import { registerControl } from './webhooks/registration.js';

/**
 * Creates the stateful mock of the whole service, for msw in-process tests or a loopback server.
 *
 * @example
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: 'error' });
 * const client = new PaymentsClient({ ...mock.clientOptions(), fetch: globalThis.fetch }); // read on each call: msw's patch applies
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const opts = resolveOptions(options);
  // Demo mode means outcomes arrive on their own: its clock follows real time unless the caller asks
  // for a manual one (`clock: { realTime: false }`), or a partner's awaitPaymentResult waits forever.
  const clock = createClock({
    ...options.clock,
    realTime: options.clock?.realTime ?? Boolean(options.autoProcess),
  });
  const faults = new FaultQueue();
  const state = new MockState();
  const fixtures = opts.seed ? seedFixtures(state, clock.iso(), opts.credentialsTier) : emptyFixtures();
  /** The pending expiry of each payment, cancelled when its order is evicted. */
  const expiries = new Map<string, () => void>();
  const deliverer = new WebhookDeliverer(clock, state, opts.webhookTimeoutMs);
  const core: MockCore = {
    state,
    clock,
    authority: new TokenAuthority(),
    options: opts,
    buckets: new Map(),
    emit: (event) => deliverer.emit(event),
    onCreated: (kind, id) => {
      if (kind === 'order') {
        // Past the limit the oldest order goes, with what hangs off it (bounded memory).
        while (state.orders.size > opts.maxOrders) {
          const old = state.evictOldestOrder();
          if (!old) break;
          for (const paymentId of old.paymentIds) {
            expiries.get(paymentId)?.();
            expiries.delete(paymentId);
          }
          deliverer.forgetOrder(old.order_id);
        }
        return;
      }
      // A pending payment expires on the mock clock; expire() refuses (and the clock skips it) once
      // the payment moved on.
      if (kind === 'payment') {
        const cancel = clock.schedule(opts.paymentTtlMs, () => {
          expiries.delete(id);
          processor.expire(id);
        });
        expiries.set(id, cancel);
      }
      if (opts.autoProcess) scheduleAutoProcess(opts.autoProcess, processor, clock, state, kind, id);
    },
    onLeftPending: (paymentId) => {
      // A payment that left pending never expires: its timer goes now, not in 15 minutes.
      expiries.get(paymentId)?.();
      expiries.delete(paymentId);
    },
    maintenance: false,
  };
  const processor = createProcessor(core);
  clock.onAdvance(() => deliverer.runDue());
  const routes = buildRoutes(core);
  const dispatch = createDispatch(
    core,
    routes,
    (incoming, path) => {
      // With no fault queued (the common case) there is nothing to match.
      const fault = faults.size === 0 ? undefined : faults.take(incoming, path);
      return fault && ((route, requestId) => playFault(fault, route, clock, requestId));
    },
    () => clock.tick(),
  );
  // The engine behind a fetch signature (msw); a reset stays `Response.error()`.
  const engineFetch = async (request: Request) =>
    toResponse(await dispatch(await incomingFromRequest(request)));
  let handlers: MswHandler[] | undefined;
  let waitClock: WaitClock | undefined;
  const mock: MockService = {
    get handlers() {
      handlers ??= mswHandlers(engineFetch);
      return handlers;
    },
    clock,
    fixtures,
    get credentials() {
      const main = fixtures.partners[0]?.clients[0];
      return { clientId: main?.clientId ?? '', clientSecret: main?.clientSecret ?? '' };
    },
    clientOptions(origin) {
      const options = {
        ...mock.credentials,
        baseUrl: origin ?? 'https://api.payments.test',
        authUrl: origin ?? 'https://auth.payments.test',
      };
      // On a manual clock the client's waits end when the test moves it (no name of the entries).
      if (!clock.realTime) {
        waitClock ??= clientWaitClock(clock);
        Object.defineProperty(options, WAIT_CLOCK, { value: waitClock, enumerable: true });
      }
      return options;
    },
    processor,
    webhooks: {
      register: (input) => registerControl(state, input, clock.iso()),
      deliveries: () => deliverer.list(),
      deadLetters: () => deliverer.list().filter((d) => d.status === 'dead_letter'),
      replay: (id) => deliverer.replay(id),
      flush: () => deliverer.flush(),
      events: () => deliverer.emitted(),
    },
    failNext: (fault) => faults.add(fault),
    snapshot: () => snapshot(state, clock.iso()),
    seedLocations(partnerId, n) {
      const org = [...state.locations.values()].find((l) => l.partner_id === partnerId)?.organization_id;
      const start = state.locationsOf(partnerId).length + 1;
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const l = makeLocation(partnerId, org ?? randomUUID(), randomUUID(), start + i, clock.iso());
        state.locations.set(l.location_id, l);
        ids.push(l.location_id);
      }
      if (!state.partners.has(partnerId)) state.addPartner(partnerId);
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
      if (!client) throw new MockControlError(`no client ${clientId} in the mock`, 'not_found');
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
    // An arrow, not a method: `fetch: mock.fetch` is handed on without its `this`.
    fetch: async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const response = await engineFetch(request);
      // A reset (`failNext({ network: true })`) rejects, as `fetch` does when the connection drops.
      if (response.type === 'error') throw new TypeError('fetch failed', { cause: resetCause() });
      return response;
    },
    async listen(listenOptions = {}) {
      // The control API and dashboard (`/_mock/...`) are served on the loopback server only.
      const control = createControlHandler({
        mock,
        state: () => core.state,
        pinnedEndpoints: () => pinnedEndpoints(mock),
        maintenance: () => core.maintenance,
        dashboard: renderDashboard,
      });
      const server = await serveEngine(
        (incoming) =>
          isControlPath(incoming.path ?? pathOf(incoming.url)) ? control(incoming) : dispatch(incoming),
        listenOptions,
      );
      return { ...server, baseUrl: server.url, authUrl: server.url };
    },
    reset() {
      state.clear();
      // Seeded ids and credentials are fixed, so the fixtures object keeps describing the new seed.
      if (opts.seed) Object.assign(fixtures, seedFixtures(state, clock.iso(), opts.credentialsTier));
      clock.clear();
      expiries.clear();
      core.buckets.clear();
      core.maintenance = false;
      faults.clear();
      deliverer.reset();
    },
    close: () => clock.close(),
  };
  return mock;
}

function emptyFixtures(): MockFixtures {
  const none = { clientId: '', clientSecret: '', scopes: [], tier: 'standard' as const };
  const nobody = {
    partnerId: '',
    parentPartnerId: null,
    organizationId: '',
    clients: [],
    locations: { payments: '', noPayments: '', inactive: '', all: [] },
  };
  return {
    partners: [],
    parentPartner: nobody,
    childPartner: nobody,
    revokedClient: none,
    lowTierClient: none,
    chargeOnlyClient: none,
  };
}

/** The path of an absolute URL, without the query (no URL parsing on the hot path). */
function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query < 0 ? undefined : query);
}
