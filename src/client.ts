// PaymentsClient, the package's main class: builds the options, auth, transport, rate limiter and
// call core, wraps the intent layer around the core, and holds the resources, `withOptions()` and
// the await-result helpers.
import type { z } from 'zod';
import { type ChargeParams, type ChargeResult, charge } from './charge.js';
import { SharedTokenAuth } from './core/auth/shared-auth.js';
import { type AuthStrategy, clientCredentialsGrant, makeAuth } from './core/auth/strategies.js';
import type { APIPromise } from './core/call/api-promise.js';
import { HttpCore } from './core/call/http.js';
import type { Requester } from './core/call/requester.js';
import { callTracer } from './core/call/trace.js';
import { INSPECT } from './core/errors/base-error.js';
import { type AuthSetup, explainCredentials, explainScope } from './core/errors/hints.js';
import { RateLimiter } from './core/limits/limiter.js';
import { rateLimitKey } from './core/limits/rate-limit.js';
import { Emitter } from './core/observe/emitter.js';
import type { EventSink, PaymentsClientEvents } from './core/observe/events.js';
import { makeLog } from './core/observe/logger.js';
import { clientSink, listenerSink } from './core/observe/sinks.js';
import { traceTarget } from './core/observe/tracing.js';
import { type PaymentsClientOptions, type ResolvedOptions, resolveOptions } from './core/options/options.js';
import { type ClientOverrides, resolveOverrides } from './core/options/overrides.js';
import type { IntentStore } from './core/stores/intent-store.js';
import { MemoryIntentStore } from './core/stores/memory-intent-store.js';
import { tokenStoreKey } from './core/stores/token-store.js';
import { defaultTransport } from './core/transport/default-transport.js';
import { userAgent } from './core/transport/runtime.js';
import type { Transport } from './core/transport/transport.js';
import type { RequestOptions, RequestSpec } from './core/types.js';
import type { RecoveredIntent, RecoverOptions } from './intents/recover.js';
import { KeyedRequester } from './intents/requester.js';
import { IntentRunner } from './intents/runner.js';
import { isMockClientId, mockClients } from './internal/mock-clients.js';
import { SecretRegistry } from './internal/redact.js';
import { clientClocks, realClock } from './internal/wait-clock.js';
import { type AwaitResultOptions, awaitPaymentResult, awaitRefundResult } from './polling.js';
import { LaunchTokens } from './resources/launch-tokens.js';
import { Locations } from './resources/locations.js';
import { Orders } from './resources/orders.js';
import { Payments } from './resources/payments.js';
import { intentReads } from './resources/reads.js';
import { Refunds } from './resources/refunds.js';
import { Specs } from './resources/specs.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import type { Payment } from './schemas/payments.js';
import type { Refund, RefundStatus } from './schemas/refunds.js';

/** What a derived client takes over from its parent (set only while `withOptions` constructs it). */
interface Lineage {
  resolved: ResolvedOptions;
  auth: AuthStrategy;
  transport: { transport: Transport; name: string };
  limiter: RateLimiter | undefined;
  secrets: SecretRegistry;
  parent: EventSink;
  intentStore: IntentStore;
}
let deriving: Lineage | undefined;

/**
 * The client of the Partner Payments Service. It mints and caches OAuth tokens, retries what is
 * safe to retry, and emits `request`, `response`, `retry` and `token` events (never a secret).
 *
 * @example
 * import { PaymentsClient } from 'partner-payments';
 *
 * const client = new PaymentsClient({ baseUrl: 'https://payments.example.com' }); // credentials from env
 * const order = await client.orders.create({ location_id: locationId, total_cents: 12_500 });
 * const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: 12_500 });
 * const result = await client.awaitPaymentResult(order.order_id, payment.payment_id);
 */
export class PaymentsClient extends Emitter<PaymentsClientEvents> implements Requester {
  /** Orders: create, get. */
  readonly orders: Orders;
  /** Payments: create, get, void. */
  readonly payments: Payments;
  /** Refunds: create, get. */
  readonly refunds: Refunds;
  /** Locations: list (paginated), get. */
  readonly locations: Locations;
  /** Launch links: create a launch token, exchange it. */
  readonly launchTokens: LaunchTokens;
  /** Webhook endpoint registration. */
  readonly webhookEndpoints: WebhookEndpoints;
  /** The service's OpenAPI and AsyncAPI documents. */
  readonly specs: Specs;

  readonly #options: ResolvedOptions;
  readonly #core: HttpCore;
  /** What the resources send through: the intent layer around {@link #core}. */
  readonly #requester: KeyedRequester;
  readonly #transport: Transport;
  readonly #transportName: string;
  readonly #limiter: RateLimiter | undefined;
  readonly #authSetup: AuthSetup;
  readonly #secrets: SecretRegistry;
  readonly #events: EventSink;
  /** This client's listeners and its parent's, without its meter: what a derived client emits to. */
  readonly #listeners: EventSink;

  /** @throws {ConfigurationError} when an option is missing or invalid. */
  constructor(options: PaymentsClientOptions = {}) {
    super();
    const lineage = deriving;
    deriving = undefined;
    const resolved = lineage ? lineage.resolved : resolveOptions(options);
    this.#options = resolved;
    if (isMockClientId(resolved.clientId)) mockClients.add(this);
    if (resolved.waitClock !== realClock) clientClocks.set(this, resolved.waitClock);
    this.#authSetup = { scopes: resolved.accessToken === undefined ? resolved.scopes : undefined };
    // This client's secrets (shared with the clients derived from it), released with it.
    const secrets = lineage ? lineage.secrets : new SecretRegistry();
    secrets.add(resolved.clientSecret);
    this.#secrets = secrets;
    const { transport, name } = lineage?.transport ?? defaultTransport(resolved);
    this.#transport = transport;
    this.#transportName = name;
    const log = makeLog(resolved.logger, resolved.logLevel, secrets);
    const rl = resolved.rateLimit;
    // A derived client waits in its parent's bucket, unless withOptions was given a rateLimit of its own.
    this.#limiter =
      lineage?.limiter ??
      (rl &&
        new RateLimiter(
          rl.limit,
          rl.store,
          rateLimitKey(resolved.baseUrl, resolved.clientId),
          log,
          resolved.waitClock,
        ));
    // Events go to this client's listeners, then to its parent's; its meter records its own calls.
    this.#listeners = listenerSink(this as unknown as Parameters<typeof listenerSink>[0], lineage?.parent);
    this.#events = clientSink(this.#listeners, resolved.meter, resolved.baseUrl, log);
    const core = new HttpCore({
      baseUrl: resolved.baseUrl,
      transport,
      maxRetries: resolved.maxRetries,
      timeoutMs: resolved.timeoutMs,
      deadlineMs: resolved.deadlineMs,
      headers: {
        accept: 'application/json',
        'user-agent': userAgent(),
        ...resolved.defaultHeaders,
      },
      events: this.#events,
      log,
      secrets,
      middleware: resolved.middleware,
      trace: resolved.tracer && callTracer(resolved.tracer, traceTarget(resolved.baseUrl)),
      limiter: this.#limiter,
      waitClock: resolved.waitClock,
      // A token of a client revoked since it was minted: the API answers 401 client_revoked.
      explain: (error, spec) => explainCredentials(explainScope(error, spec.scope, this.#authSetup)),
    });
    if (lineage) core.auth = lineage.auth;
    else {
      const mint = clientCredentialsGrant((spec) => core.exchange(spec), resolved);
      const { tokenStore: store, accessToken, authUrl, clientId = '', scopes } = resolved;
      const emit = this.#events.emit;
      core.auth =
        store && accessToken === undefined
          ? new SharedTokenAuth(mint, emit, store, tokenStoreKey(authUrl, clientId, scopes), log, secrets)
          : makeAuth(accessToken, mint, emit, secrets);
    }
    this.#core = core;
    // The intent layer sends and reads down through the core. Its store is shared with the clients
    // derived from this one (same keys, same payments).
    const send = <S extends z.ZodType>(spec: RequestSpec<S>) => core.request(spec);
    const intents = new IntentRunner({
      store: lineage?.intentStore ?? resolved.intentStore ?? new MemoryIntentStore(),
      reconcile: resolved.reconcile,
      settleMs: resolved.settleMs,
      clock: resolved.waitClock,
      ...intentReads(send, resolved.waitClock),
      send,
      events: this.#events,
      log,
      deadlineMs: resolved.deadlineMs,
      maxRetries: resolved.maxRetries,
    });
    const requester = new KeyedRequester(core, intents);
    this.#requester = requester;
    this.orders = new Orders(requester);
    this.payments = new Payments(requester);
    this.refunds = new Refunds(requester);
    this.locations = new Locations(requester);
    this.launchTokens = new LaunchTokens(requester);
    this.webhookEndpoints = new WebhookEndpoints(requester);
    this.specs = new Specs(requester);
  }

  /**
   * Sends one API call through the client's auth, retry and error handling (and, for a spec with an
   * `intent`, its intent store: exactly once per idempotency key). Resources use it; call it
   * yourself only for an endpoint the SDK does not cover yet.
   *
   * @example
   * const order = await client.request({
   *   method: 'GET',
   *   path: '/pos/v1/orders/3f1c...',
   *   retry: 'safe',
   *   response: z.looseObject({ order_id: z.string() }),
   * });
   */
  request<S extends z.ZodType>(spec: RequestSpec<S>): APIPromise<z.infer<S>> {
    return this.#requester.request(spec);
  }

  /**
   * Creates an order and pays it under one key of yours: the same key again, from any
   * client sharing the intent store, returns the same order and payment and creates neither again
   * (a retried checkout charges once); the same key with other params throws
   * `IdempotencyConflictError` before the payment is sent. `opts.deadlineMs` covers both steps,
   * reconciliation included. See docs/idempotency.md.
   *
   * @example
   * const { order, payment } = await client.charge({
   *   idempotencyKey: `checkout-${cart.id}`,
   *   order: { location_id: locationId, total_cents: cart.totalCents, external_reference: cart.id },
   * });
   */
  charge(params: ChargeParams, opts?: RequestOptions): Promise<ChargeResult> {
    return charge(
      this,
      { store: this.#requester.intents.store, deadlineMs: this.#options.deadlineMs },
      params,
      opts,
    );
  }

  /**
   * The client's intent store (its `intentStore` option, else the in-memory one it made), shared
   * with the clients derived from it: what `handler.catchUp(client)` reads (docs/webhooks.md).
   *
   * @example
   * const made = await client.intentStore.made?.({ from: Date.now() - 3_600_000, to: Date.now() });
   */
  get intentStore(): IntentStore {
    return this.#requester.intents.store;
  }

  /**
   * Settles every payment and refund intent that no live call holds (a process died mid-call, or a
   * call ended with an unknown outcome), by reading the service's records, and reports each key:
   * `landed` (with its id), `not_landed` (the key may be used again and creates its resource once),
   * or `unknown`. Run it at start-up or from a cron job; with a shared `intentStore` it covers the fleet.
   *
   * @example
   * const report = await client.recover();
   * for (const r of report) if (r.outcome === 'unknown') console.warn(`check order ${r.orderId} (key ${r.idempotencyKey})`);
   */
  recover(options?: RecoverOptions): Promise<RecoveredIntent[]> {
    return this.#requester.intents.recover(options);
  }

  /**
   * A client with some options changed that shares this one's token cache, single in-flight token
   * mint, connection pool and secret registry: deriving mints no token and opens no connection.
   * Its events reach its own listeners, then this client's.
   *
   * @throws {ConfigurationError} for an option that cannot be changed (credentials, URLs, transport).
   * @example
   * const impatient = client.withOptions({ maxRetries: 0, timeoutMs: 2_000 });
   * const order = await impatient.orders.get(orderId);
   */
  withOptions(overrides: ClientOverrides): PaymentsClient {
    const auth = this.#core.auth;
    if (!auth) throw new Error('unreachable: a client always has an auth strategy');
    deriving = {
      resolved: resolveOverrides(this.#options, overrides),
      auth,
      transport: { transport: this.#transport, name: this.#transportName },
      limiter: overrides.rateLimit === undefined ? this.#limiter : undefined,
      secrets: this.#secrets,
      parent: this.#listeners,
      intentStore: this.#requester.intents.store,
    };
    try {
      return new PaymentsClient();
    } finally {
      deriving = undefined;
    }
  }

  /**
   * Reads a payment every 3 s (by default) until it leaves `pending`, or reaches a status of
   * `until`, and returns it. See {@link awaitPaymentResult}.
   *
   * @example
   * const result = await client.awaitPaymentResult(orderId, paymentId, { maxWaitMs: 60_000 });
   * if (result.status === 'approved') fulfil(orderId);
   * const settled = await client.awaitPaymentResult(orderId, paymentId, { until: ['settled'] }); // before a refund
   */
  awaitPaymentResult(orderId: string, paymentId: string, opts?: AwaitResultOptions): Promise<Payment> {
    return awaitPaymentResult(this, orderId, paymentId, opts);
  }

  /**
   * Reads a refund until the processor confirmed (`approved`) or rejected (`failed`) it.
   *
   * @example
   * const refund = await client.refunds.create(orderId, paymentId, { amount_cents: 500 });
   * const done = await client.awaitRefundResult(orderId, paymentId, refund.refund_id);
   */
  awaitRefundResult(
    orderId: string,
    paymentId: string,
    refundId: string,
    opts?: AwaitResultOptions<RefundStatus>,
  ): Promise<Refund> {
    return awaitRefundResult(this, orderId, paymentId, refundId, opts);
  }

  /** What `JSON.stringify(client)` shows: the configuration, without any secret. */
  toJSON(): Record<string, unknown> {
    const o = this.#options;
    return {
      baseUrl: o.baseUrl,
      authUrl: o.authUrl,
      clientId: o.clientId,
      auth: o.accessToken === undefined ? 'client_credentials' : 'access_token',
      scopes: o.scopes,
      maxRetries: o.maxRetries,
      timeoutMs: o.timeoutMs,
      deadlineMs: o.deadlineMs,
      transport: this.#transportName,
    };
  }

  /** What `util.inspect` and `console.log` show: the same as {@link toJSON}. */
  [INSPECT](): string {
    return `PaymentsClient ${JSON.stringify(this.toJSON())}`;
  }
}
