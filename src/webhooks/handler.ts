// `createWebhookHandler()`: a receiver for fetch-style platforms and Node.js servers that verifies
// each delivery, skips redeliveries, and runs the handler of the event's kind.
import { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
import type { PaymentsMeter } from '../core/observe/metrics.js';
import type { PaymentsTracer } from '../core/observe/tracing.js';
import { DEFAULT_DEDUPE_TTL_MS, type DedupeStore, MemoryDedupeStore } from '../core/stores/dedupe-store.js';
import type { IntentStore } from '../core/stores/intent-store.js';
import type { KnownEventKind } from '../schemas/event-envelope.js';
import type { WebhookEvent, WebhookEventOf } from '../schemas/events.js';
import type { CatchUpClient, CatchUpOptions, CatchUpResult } from './catch-up.js';
import { claimWithin, createDeduplicator, dedupeTimeoutOf } from './dedupe.js';
import {
  type Answer,
  answerFetch,
  answerNode,
  type Delivery,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
} from './handler-io.js';
import { nodeApis } from './runtime.js';
import type { WebhookSecret } from './signature.js';
import { webhookTelemetry } from './telemetry.js';
import { finalKey, mark, runTransition, type TransitionStore, transitionOf } from './transitions.js';
import { verifyWebhook, verifyWebhookAsync } from './verify.js';

/**
 * One function per event kind, each receiving the typed event of its kind. A kind left out goes to
 * `onUnknown` (or is acknowledged and ignored).
 *
 * @example
 * const on: WebhookEventHandlers = {
 *   'payment.approved': (event) => queue.push('fulfil', event.resource.order_id),
 *   'payment.refunded': (event) => queue.push('refunded', event.resource.payment_id),
 * };
 */
export type WebhookEventHandlers = {
  [K in KnownEventKind]?: (event: WebhookEventOf<K>) => unknown;
};

/**
 * What {@link WebhookHandlerOptions.onError} is told besides the error.
 *
 * @example
 * const onError = (err: unknown, { status, event }: WebhookErrorContext) =>
 *   logger.warn({ status, eventId: event?.event_id, err }, 'webhook delivery refused');
 */
export interface WebhookErrorContext {
  /** The status answered: 400 (verification failed), 405, 413, or 500 (a handler, the store or the setup failed). */
  status: number;
  /** The verified event, when the failure came after verification. */
  event?: WebhookEvent;
}

/**
 * Options of {@link createWebhookHandler}.
 *
 * @example
 * const options: WebhookHandlerOptions = {
 *   secret: process.env.PAYMENTS_WEBHOOK_SECRET!,
 *   on: { 'payment.approved': (event) => queue.push(event) },
 * };
 */
export interface WebhookHandlerOptions {
  /**
   * The endpoint's signing secret, a list during a rotation, or a function returning either (called on
   * each delivery, so a secret rotated in a secret manager is picked up without a restart).
   */
  secret: WebhookSecret | (() => WebhookSecret);
  /** The handlers, by event kind. Keep them short (queue the event): the service waits 30 s at most. */
  on: WebhookEventHandlers;
  /** Events of a kind with no handler in `on` (a kind added after this SDK version, or one not listed). @default acknowledged (200) and ignored */
  onUnknown?: (event: WebhookEvent) => unknown;
  /**
   * Told of every delivery not answered 200, with the error (a {@link WebhookVerificationError} for
   * 400, what a handler threw for 500). Its own errors are ignored.
   * @default console.error for 500s only (400s are what strangers' requests get, not worth a log line each)
   */
  onError?: (error: unknown, context: WebhookErrorContext) => void;
  /**
   * Where the `event_id`s already handled are kept, for several instances a shared one (Redis, SQL).
   * @default new MemoryDedupeStore()
   */
  dedupe?: DedupeStore;
  /** How long a handled `event_id` is remembered. @default 86400000 (24 hours, longer than the 14.6 h retry schedule) */
  dedupeTtlMs?: number;
  /**
   * How long the dedupe store may take to claim an event before the delivery is answered 500 without
   * running the handler (a Redis client that queues commands during an outage would otherwise hold
   * the delivery until the service gives up). A claim that lands later is given back.
   * @default 5000
   */
  dedupeTimeoutMs?: number;
  /**
   * How long a run of a transition's handler holds its lease in the dedupe store (a store with
   * `has`): a process killed mid-handler leaves the transition unapplied, and it is free again for
   * the next `catchUp` pass (or delivery) after this. Keep it above your handlers' longest run.
   * @default 60000
   */
  transitionLeaseMs?: number;
  /** Refuse events older than this (reason `event_too_old`); see `VerifyWebhookOptions.maxAgeMs`. @default undefined (no limit) */
  maxAgeMs?: number;
  /** The largest body accepted; a larger one is answered 413 unread. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /**
   * The client's `intentStore`: every refund event (`payment.refunded`, the reversal events) is
   * recorded in it before your handler runs, which is how a refund whose answer was lost becomes
   * known (the service lists no refunds of a payment; docs/idempotency.md). A store failure answers
   * 500, so the service delivers the event again.
   * @default undefined (refund events are not recorded)
   */
  intentStore?: Pick<IntentStore, 'noteRefund'>;
  /**
   * An OpenTelemetry `Tracer`: a SERVER span `POST webhook` per delivery (event kind and id, outcome,
   * status; ERROR when it is answered 500), the active context while your handler runs.
   * @default undefined (no tracing)
   */
  tracer?: PaymentsTracer;
  /**
   * An OpenTelemetry `Meter`: `partner_payments.webhook.deliveries` by outcome (`handled`,
   * `duplicate`, `rejected` with the verifier's reason, `handler_error`) and
   * `partner_payments.webhook.lag` (seconds from the signed `occurred_at`).
   * @default undefined (no metrics)
   */
  meter?: PaymentsMeter;
}

/**
 * A receiver for the service's deliveries, for fetch-style platforms and for Node.js servers.
 *
 * @example
 * export const POST = (request: Request) => webhooks.fetch(request); // Next.js App Router
 * app.post('/webhooks/payments', express.raw({ type: '*\/*' }), (req, res) => webhooks.node(req, res));
 */
export interface WebhookHandler {
  /** Answers a fetch `Request` (Next.js route handlers, Hono's `c.req.raw`, Workers, Deno, Bun). Never rejects. */
  fetch(request: Request): Promise<Response>;
  /**
   * Answers a Node.js request (node:http, Express, Fastify with `reply.hijack()`): reads the body from
   * the stream, or takes `req.body` when a framework already read it as a Buffer or string. Never rejects.
   */
  node(req: NodeWebhookRequest, res: NodeWebhookResponse): Promise<void>;
  /**
   * One pass catching up on lost webhooks (docs/webhooks.md): over the orders, payments
   * and refunds `client`'s intent store says were made between `sinceMs` (24 h) and `olderThanMs`
   * (60 s) ago, reads each not yet final from the service (through the client's own methods, so its
   * rate limiter and deadlines apply) and, for each transition this handler has not applied, runs its
   * `on` callback with the event the webhook would have carried: same `event_kind`, envelope and
   * `resource`; `event_id` `catchup:<kind>:<payment_id>[:<refund_id>]` and `catch_up: true`
   * (`isCatchUpEvent(event)` from `partner-payments/webhooks`). Payments made on the hosted checkout page of an order the SDK created
   * (under a key) are included.
   *
   * Each transition runs once, whichever comes first: the webhook (then answered 200 as a duplicate
   * when it, or its dead-letter replay, arrives after the pass) or a pass (several at once over
   * shared stores included). A callback that throws leaves its transition unapplied and is counted
   * in `failed` (with the error in `errors`); the pass goes on.
   *
   * @example
   * setInterval(() => webhooks.catchUp(client).then(
   *   (r) => r.failed > 0 && console.warn(`catch-up: ${r.failed} callbacks failed`),
   * ), 5 * 60_000);
   */
  catchUp(client: CatchUpClient, options?: CatchUpOptions): Promise<CatchUpResult>;
}

/** Records the refund a refund event is about (any event whose resource names a `refund_id`). */
function noteRefund(store: Pick<IntentStore, 'noteRefund'>, event: WebhookEvent): Promise<void> | undefined {
  const r = event.resource as Record<string, unknown>;
  if (typeof r.refund_id !== 'string' || typeof r.payment_id !== 'string') return undefined;
  return store.noteRefund({
    refundId: r.refund_id,
    paymentId: r.payment_id,
    orderId: String(r.order_id ?? ''),
    amountCents: Number(r.refund_amount_cents),
    occurredAt: Date.parse(event.occurred_at),
  });
}

/** Reasons that are the receiver's own fault, not the sender's: 500, so the service retries once it is fixed. */
const SETUP_REASONS = new Set(['missing_secret', 'body_not_raw']);

/**
 * Creates a webhook receiver: it verifies each delivery (synchronously where `node:crypto` exists, on
 * Web Crypto elsewhere), skips an `event_id` already handled, and runs the handler of the event's kind.
 *
 * Answers: `200` after the handler succeeded, and for a redelivery without running it again; `400`
 * with the reason code (`signature_mismatch`, `invalid_payload`, ...) when verification fails, and
 * nothing else; `500` when a handler throws (its `event_id` is released, so the service's retry runs it
 * again), when the dedupe store fails, or when the receiver is misconfigured (no secret, a body a
 * framework parsed as JSON); `405` to anything but POST; `413` to a body over `maxBodyBytes`.
 *
 * The service waits 30 seconds for an answer and then counts the attempt as failed: queue the event in
 * the handler and answer fast. A handler that overruns may see its event redelivered while it is still
 * running; that copy is answered 200 as a duplicate, so a handler that then fails loses the event.
 *
 * @example
 * import { createWebhookHandler } from 'partner-payments/webhooks';
 *
 * const webhooks = createWebhookHandler({
 *   secret: process.env.PAYMENTS_WEBHOOK_SECRET!,
 *   on: {
 *     'payment.approved': async (event) => { await jobs.enqueue('fulfil', event.resource.order_id); },
 *     'payment.refunded': async (event) => { await jobs.enqueue('refunded', event.resource.payment_id); },
 *   },
 *   onUnknown: (event) => console.info(`ignored ${event.event_kind}`),
 *   onError: (err, { status }) => console.warn(`webhook answered ${status}`, err),
 * });
 *
 * export const POST = (request: Request) => webhooks.fetch(request); // or: (req, res) => webhooks.node(req, res)
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const dedupeStore = options.dedupe ?? new MemoryDedupeStore();
  const dedupe = createDeduplicator({ store: dedupeStore, ttlMs: options.dedupeTtlMs });
  const transitions: TransitionStore = {
    store: dedupeStore,
    ttlMs: options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS,
    leaseMs: options.transitionLeaseMs ?? 60_000,
  };
  /** The partner_id of the last verified delivery: what a catch-up's events carry by default. */
  let partnerId: string | undefined;
  const handlerOf = (kind: string) => {
    const run = Object.hasOwn(options.on, kind)
      ? (options.on[kind as KnownEventKind] as ((e: WebhookEvent) => unknown) | undefined)
      : undefined;
    return typeof run === 'function' ? run : options.onUnknown;
  };
  const claimTimeoutMs = dedupeTimeoutOf(options.dedupeTimeoutMs);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const verifyOptions = { maxAgeMs: options.maxAgeMs };
  const report = (error: unknown, context: WebhookErrorContext) => {
    try {
      if (options.onError) options.onError(error, context);
      else if (context.status >= 500)
        console.error(`partner-payments webhook answered ${context.status}:`, error);
    } catch {
      // onError's own failure must not change the answer.
    }
  };
  const fail = (status: number, error: unknown, event?: WebhookEvent, code = 'internal_error'): Answer => {
    report(error, event ? { status, event } : { status });
    return { status, body: { received: false, error: code } };
  };

  const observed = webhookTelemetry(options.tracer, options.meter);
  const receive = observed
    ? (delivery: Delivery) => observed((verified) => handleDelivery(delivery, verified))
    : (delivery: Delivery) => handleDelivery(delivery, undefined);

  async function handleDelivery(
    delivery: Delivery,
    verified: ((event: WebhookEvent) => void) | undefined,
  ): Promise<Answer> {
    let event: WebhookEvent;
    try {
      const secret = typeof options.secret === 'function' ? options.secret() : options.secret;
      event = nodeApis()
        ? verifyWebhook(delivery.body, delivery.header, secret, verifyOptions)
        : await verifyWebhookAsync(delivery.body, delivery.header, secret, verifyOptions);
    } catch (err) {
      if (err instanceof WebhookVerificationError && !SETUP_REASONS.has(err.reason)) {
        return fail(400, err, undefined, err.reason);
      }
      return fail(500, err);
    }
    verified?.(event);
    partnerId = event.partner_id;
    if (options.intentStore) {
      try {
        await noteRefund(options.intentStore, event);
      } catch (err) {
        return fail(500, err, event);
      }
    }
    const handle = handlerOf(event.event_kind);
    if (!handle) return { status: 200, body: { received: true } };
    let claimed: boolean;
    try {
      claimed = await claimWithin(dedupe, event.event_id, claimTimeoutMs);
    } catch (err) {
      return fail(500, err, event);
    }
    if (!claimed) return { status: 200, body: { received: true, duplicate: true } };
    try {
      const transition = transitionOf(event);
      if (transition === undefined) await handle(event);
      else {
        // One transition, one run: a catch-up pass may have run it already (api.md 23).
        const outcome = await runTransition(transitions, transition, () => handle(event));
        if (outcome === 'applied') return { status: 200, body: { received: true, duplicate: true } };
        if (outcome === 'busy') throw new PaymentsError('A catch-up pass is running this transition now.');
        const kind = event.event_kind;
        if (
          kind === 'payment.approved' ||
          kind === 'payment.voided' ||
          kind === 'payment.cancelled' ||
          kind === 'payment.expired'
        )
          await mark(transitions, finalKey(event.resource.payment_id)).catch(() => undefined);
      }
      return { status: 200, body: { received: true } };
    } catch (err) {
      try {
        await dedupe.release(event.event_id);
      } catch (releaseError) {
        report(releaseError, { status: 500, event });
      }
      return fail(500, err, event);
    }
  }

  return {
    fetch: (request) => answerFetch(request, { maxBodyBytes, receive, fail }),
    node: (req, res) => answerNode(req, res, { maxBodyBytes, receive, fail }),
    // Loaded on first use: a receiver that never catches up (and the main entry) carries none of it.
    catchUp: async (client, catchUpOptions) =>
      (await import('./catch-up.js')).catchUp(
        {
          transitions,
          handlerOf,
          noteRefund: (event) => (options.intentStore ? noteRefund(options.intentStore, event) : undefined),
          partnerId: () => partnerId,
        },
        client,
        catchUpOptions,
      ),
  };
}
