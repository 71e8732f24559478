// The public types of the mock: MockService (what `createMockService()` returns), its webhook side
// MockWebhooks, and MockServer, a mock listening on loopback.
import type { KnownEventKind } from '../schemas/events.js';
import type { MockClock } from './clock.js';
import type { FixtureClient, MockFixtures } from './domain/fixtures.js';
import type { MockProcessor } from './domain/processor.js';
import type { MockSnapshot } from './domain/snapshot.js';
import type { FaultSpec } from './faults/fault-queue.js';
import type { LoopbackServer } from './servers/http-server.js';
import type { MswHandler } from './servers/msw.js';
import type { RateTier } from './state.js';
import type { Delivery, EventEnvelope } from './webhooks/deliveries.js';

/**
 * The mock's webhook side: control-side registration, deliveries, dead letters, replay.
 *
 * @example
 * const { signing_secret } = mock.webhooks.register({ partnerId, url: 'http://127.0.0.1:8123/hooks' });
 * mock.processor.approve(paymentId);
 * await mock.webhooks.flush();
 */
export interface MockWebhooks {
  /**
   * Registers an endpoint for a partner; `http://` is allowed for loopback receivers. Returns it with
   * its secret. Throws {@link MockControlError} (`invalid`) for another URL or an unknown event kind.
   */
  register(input: { partnerId: string; url: string; eventKinds?: KnownEventKind[] }): {
    webhook_endpoint_id: string;
    signing_secret: string;
    url: string;
    event_kinds: KnownEventKind[] | null;
  };
  /** Every delivery (one per event and endpoint), with its attempts, oldest first. */
  deliveries(): Delivery[];
  /** Deliveries that failed all 6 attempts. */
  deadLetters(): Delivery[];
  /**
   * Delivers a delivery's event again as a new delivery, with the same body and `event_id`. Throws
   * {@link MockControlError}: `not_found` for an unknown id, `conflict` while it is still pending or
   * when its endpoint is gone.
   */
  replay(deliveryId: string): Delivery;
  /** Waits until no delivery attempt is in flight. */
  flush(): Promise<void>;
  /** The events the mock emitted (the latest 10,000), whether or not an endpoint was registered, oldest first. */
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
 * The mock of the Partner Payments Service: see docs/testing.md. Its engine is {@link MockService.fetch};
 * the loopback server and the bin call it directly, and msw is only needed for `handlers`.
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
  readonly handlers: MswHandler[];
  /** The one clock of the mock: advance it to run whatever falls due. */
  readonly clock: MockClock;
  /** The seeded partners, clients and locations (the same object before and after `reset()`). */
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
  /** Processor outcomes for payments and refunds; each throws {@link MockControlError} when the state does not fit. */
  readonly processor: MockProcessor;
  readonly webhooks: MockWebhooks;
  /**
   * Makes the next matching request(s) misbehave, before the route runs or (`phase: 'after'`) once it
   * committed its effect; throws a `FaultSpecError` naming the bad field.
   */
  failNext(fault: FaultSpec): void;
  /**
   * What the mock holds: three flat lists, oldest first, of every partner's orders, payments and
   * refunds with their current statuses (each record with its `partner_id`), and the clock. For each
   * order with its payments and refunds nested, use the control API's `GET /_mock/v1/orders`.
   */
  snapshot(): MockSnapshot;
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
  /**
   * The engine: answers one request directly, without msw (the handlers and `listen()` call it).
   * Called as the global `fetch` is, `(input, init)`, so it is a client's `fetch` option as it is:
   * `new PaymentsClient({ ...mock.clientOptions(), fetch: mock.fetch })`. A connection reset fault
   * rejects with a `TypeError` ("fetch failed"), as `fetch` does.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Serves the mock on a real HTTP server on 127.0.0.1 (no msw needed). */
  listen(options?: { port?: number; host?: string }): Promise<MockServer>;
  /**
   * Forgets every order, payment, refund, endpoint, delivery, token bucket, fault and pending clock
   * timer, in place, and seeds the fixtures again (same partners, clients and credentials). The clock
   * keeps its time; tokens minted before stay valid.
   */
  reset(): void;
  /** Stops the real-time wake-up (real-time clock only). */
  close(): void;
}
