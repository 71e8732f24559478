// The types of a call, on the ground floor of core/ so that every room of it imports them without
// climbing: the per-call RequestOptions, the RetryMode, the RequestSpec a resource hands to the core
// with Reconciliation, ResponseMeta and the core's CoreSpec. The core knows nothing of intents: the
// intent layer (src/intents/) wraps it.
// The Requester contract, which names the call's promise, is in call/requester.ts.
import type { z } from 'zod';
import type { Scope } from '../schemas/common.js';

/**
 * Options every resource method takes as its last argument.
 *
 * @example
 * await client.orders.get(orderId, { timeoutMs: 5_000, signal: controller.signal });
 */
export interface RequestOptions {
  /** Cancels the request and any backoff sleep at once. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds. @default the client's `timeoutMs` (30 000) */
  timeoutMs?: number;
  /** Total deadline in milliseconds for all attempts and waits. @default the client's `deadlineMs` (none) */
  deadlineMs?: number;
  /** Retries after the first attempt. @default the client's `maxRetries` (2) */
  maxRetries?: number;
  /**
   * The key that makes the call happen once: the `Idempotency-Key` of an order creation (sent to the
   * service), or the client-side key of a payment or refund (kept in the intent store, never sent).
   * Any non-empty string up to 255 characters.
   * @default a UUID generated once per call
   */
  idempotencyKey?: string;
  /**
   * For a payment or refund: learn the outcome of a lost answer before answering (`'auto'`), or
   * throw `outcomeUnknown: true` at once (`'off'`).
   * @default the client's `reconcile` ('auto')
   */
  reconcile?: 'auto' | 'off';
  /** Extra headers for this request; they replace the client's headers of the same name. @default {} */
  headers?: Record<string, string>;
}

/**
 * Whether a payment or refund with a lost answer is reconciled before the call answers.
 *
 * @example
 * const client = new PaymentsClient({ reconcile: 'off' as ReconcileMode }); // 0.2.0's behaviour
 */
export type ReconcileMode = 'auto' | 'off';

/**
 * How a request may be retried (name it in {@link RequestSpec} for a call through `client.request`):
 * - `safe`: reads and `void` (idempotent on the service): every retryable failure.
 * - `keyed`: order creation, which carries an `Idempotency-Key`: every retryable failure, same key.
 * - `unsafe`: payment and refund creation: only failures where the request provably was not
 *   processed (429, a connection never established); otherwise the error is marked outcome-unknown.
 *
 * @example
 * const mode: RetryMode = method === 'GET' ? 'safe' : 'unsafe';
 */
export type RetryMode = 'safe' | 'keyed' | 'unsafe';

/**
 * One API call as a resource describes it to the core; `client.request(spec)` takes one for an
 * endpoint the SDK does not cover yet.
 *
 * @example
 * const Status = z.looseObject({ status: z.string() });
 * const spec: RequestSpec<typeof Status> = {
 *   method: 'GET',
 *   path: `/pos/v1/orders/${encodeURIComponent(orderId)}`,
 *   retry: 'safe',
 *   response: Status,
 * };
 * const { status } = await client.request(spec);
 */
export interface RequestSpec<S extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST';
  /** The path below the base URL, each parameter already encoded (`encodeURIComponent`). */
  path: string;
  /**
   * The path template, such as `/pos/v1/orders/{order_id}`: what events, middleware and span names
   * show (low cardinality). Give it when the path holds ids.
   * @default the path
   */
  route?: string;
  /** Query parameters; undefined values are left out. @default undefined (none) */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (already validated). @default undefined (no body) */
  body?: unknown;
  /**
   * `body` as the SDK already serialised it (the intent layer's fingerprint text), sent as is
   * instead of serialising `body` again.
   * @internal
   */
  json?: string | undefined;
  /** Whether to send the bearer token. Public endpoints pass false. @default true */
  auth?: boolean;
  /**
   * The scope the endpoint needs (spec section 5), named in the error when the token lacks it.
   * @default undefined (the error says only that a scope is missing)
   */
  scope?: Scope;
  retry: RetryMode;
  /** The lenient response schema. */
  response: S;
  /**
   * For `unsafe` calls: how the caller learns whether a call with an unknown outcome took effect.
   * The error's message says it, and the error carries it as `reconcile`.
   * @default { check: 'read the resource to learn whether it took effect before trying again' }
   */
  reconcile?: Reconciliation;
  /** The caller's per-call options. @default undefined (the client's settings) */
  options?: RequestOptions | undefined;
}

/**
 * How to learn whether a call whose outcome is unknown took effect, as data (the error's message
 * is written from it).
 *
 * @example
 * const reconcile: Reconciliation = {
 *   subject: 'the order',
 *   read: `client.orders.get('${orderId}')`,
 *   check: 'look for a payment of 1250 cents before creating another',
 * };
 */
export interface Reconciliation {
  /** What to read, in words (`the order`). @default 'it' */
  subject?: string;
  /** The call that shows the truth, as code, when there is one. @default undefined */
  read?: string;
  /** What to check or do, lower-case, without a final period. */
  check: string;
}

/**
 * What the core fills in when a call succeeds, before its data promise resolves. Internal: one
 * small object per call, read only by `.withResponse()`.
 */
export interface ResponseMeta {
  /** The HTTP status of the successful attempt (0 until then). */
  status: number;
  /** The service's request id of the successful attempt. */
  requestId: string | undefined;
  /** Raw, lower-case; redacted only when `.withResponse()` asks (the hot path never pays for it). */
  headers: Record<string, string>;
  /** The client's redaction of header values. @default generic credential patterns only */
  redactHeaders?: ((headers: Record<string, string>) => Record<string, string>) | undefined;
}

/**
 * A request as the core sends it: an API call's spec, which the token grant extends with another
 * root and a form body (one shape for both; the grant is sent with {@link HttpCore.exchange}).
 */
export interface CoreSpec<S extends z.ZodType = z.ZodType> extends RequestSpec<S> {
  /** Another root than the base URL (the token issuer's); only without a bearer token. */
  origin?: string;
  /** A form-encoded body instead of JSON. */
  form?: Record<string, string>;
  /** What a failure's message starts with (`Could not get an access token`). */
  context?: string;
  /** Adds what the SDK knows about the failure before it is finished (the credentials hint). */
  explain?: (error: unknown) => unknown;
}
