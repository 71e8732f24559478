/**
 * The events a {@link PaymentsClient} emits. Payloads carry what a dashboard or a log needs (call id,
 * method, path, status, attempt, timing, request id) and never a secret: no token, no header, no
 * query string. Every event of one call carries the same `callId`; `end` comes once per call.
 */

/**
 * An attempt is about to be sent. `attempt` is 1 for the first try.
 *
 * @example
 * client.on('request', (e: RequestEvent) => log.debug(`${e.method} ${e.path} (attempt ${e.attempt})`));
 */
export interface RequestEvent {
  /** The call this attempt belongs to (shared by its attempts and its `end`). */
  callId: string;
  method: string;
  /** The path without its query string (a query value may be a credential). */
  path: string;
  /** The path template, such as `/pos/v1/orders/{order_id}`. */
  route: string;
  attempt: number;
  /** How long this attempt waited for the client's rate limit (`rateLimit` option), when it waited. */
  rateLimitWaitMs?: number;
}

/**
 * An HTTP response arrived (any status).
 *
 * @example
 * client.on('response', (e: ResponseEvent) => metrics.timing('payments.http', e.durationMs, { status: e.status }));
 */
export interface ResponseEvent {
  callId: string;
  method: string;
  path: string;
  /** The path template. */
  route: string;
  status: number;
  attempt: number;
  /** Time from sending the attempt to the end of its body. */
  durationMs: number;
  /** The service's request id (body `request_id` or `X-Request-Id`), to quote to support. */
  requestId: string | undefined;
}

/**
 * Why an attempt is retried.
 *
 * @example
 * const transient: RetryReason[] = ['connection', 'timeout'];
 */
export type RetryReason = 'status' | 'connection' | 'timeout';

/**
 * An attempt failed and another will follow after `delayMs`.
 *
 * @example
 * client.on('retry', (e: RetryEvent) => log.warn(`retry #${e.attempt} in ${e.delayMs}ms (${e.reason} ${e.status ?? ''})`));
 */
export interface RetryEvent {
  callId: string;
  method: string;
  path: string;
  /** The path template. */
  route: string;
  /** The attempt that failed. */
  attempt: number;
  delayMs: number;
  reason: RetryReason;
  /** The status of the failed attempt, when it got one. */
  status?: number;
}

/**
 * The access token changed: a new one was minted, or the cached one was dropped.
 *
 * @example
 * client.on('token', (e: TokenEvent) => log.info(`token ${e.action}`, e.reason ?? e.expiresIn));
 */
export interface TokenEvent {
  action: 'minted' | 'invalidated';
  /** Lifetime in seconds the token endpoint announced (on `minted`). */
  expiresIn?: number;
  /** How long the mint took (on `minted`). */
  durationMs?: number;
  /** Why the token was dropped (on `invalidated`), e.g. `token_expired`. */
  reason?: string;
}

/**
 * A call ended, once per call, however it ended: a result, an error response, or no response at all
 * (connection refused or reset, timeout, deadline, abort, a token that could not be minted).
 *
 * @example
 * client.on('end', (e: EndEvent) => {
 *   metrics.timing('payments.call', e.durationMs, { route: e.route, ok: e.ok, status: e.status ?? 'none' });
 *   if (e.outcomeUnknown) alerts.page(`reconcile ${e.method} ${e.path} (call ${e.callId})`);
 * });
 */
export interface EndEvent {
  callId: string;
  method: string;
  /** The path with its ids, without the query string. */
  path: string;
  /** The path template, such as `/pos/v1/orders/{order_id}`. */
  route: string;
  /** Whether the call gave a result. */
  ok: boolean;
  /** The status of the last response, when one arrived. */
  status?: number;
  /** The service's error code (`order_not_found`, ...), when an error response had one. */
  code?: string;
  /** Attempts sent (0 when the call ended before sending: an abort, a token that could not be minted). */
  attempts: number;
  /** From the call's start to its end, waits included. */
  durationMs: number;
  /** True when the call failed but may have taken effect (read before trying again). */
  outcomeUnknown?: boolean;
  /** The error's class (`NotFoundError`, `APIConnectionTimeoutError`, ...), when the call failed. */
  errorType?: string;
}

/**
 * A payment or refund whose answer was lost was reconciled against the service's records, once per
 * reconciliation (also by `client.recover()`). Ids only: never a secret.
 *
 * @example
 * client.on('reconcile', (e: ReconcileEvent) => {
 *   if (e.outcome === 'unknown') alerts.page(`charge ${e.idempotencyKey} on order ${e.orderId}: outcome unknown`);
 * });
 */
export interface ReconcileEvent {
  /** The call that reconciled (undefined for `client.recover()`). */
  callId: string | undefined;
  idempotencyKey: string;
  kind: 'payment' | 'refund';
  /** `landed`: adopted (`paymentId` / `refundId`); `not_landed`: sent again or free to send; `unknown`: could not be told. */
  outcome: 'landed' | 'not_landed' | 'unknown';
  orderId: string;
  /** The landed payment, or the refunded payment of a refund. */
  paymentId?: string | undefined;
  /** The landed refund. */
  refundId?: string | undefined;
  /** The ids that could be it, when several matched. */
  candidates?: string[] | undefined;
}

/**
 * The event map of the client's emitter.
 *
 * @example
 * client.on('retry', (e) => metrics.increment('payments.retry', { reason: e.reason }));
 * client.on('response', (e) => log.debug(`${e.method} ${e.path} ${e.status} ${e.durationMs}ms`));
 */
export interface PaymentsClientEvents {
  request: [RequestEvent];
  response: [ResponseEvent];
  retry: [RetryEvent];
  token: [TokenEvent];
  end: [EndEvent];
  reconcile: [ReconcileEvent];
}

/** How the core reports events: the client's `emit`, or a no-op. */
export type EmitFn = <K extends keyof PaymentsClientEvents>(
  name: K,
  payload: PaymentsClientEvents[K][0],
) => void;

/**
 * Where the core reports events. `wants(name)` is checked first, so that with nobody listening no
 * payload object is ever built (the hot path).
 */
export interface EventSink {
  wants(name: keyof PaymentsClientEvents): boolean;
  emit: EmitFn;
}
