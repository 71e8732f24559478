// The client's options: PaymentsClientOptions, the ResolvedOptions after defaults, and
// `resolveOptions()`, which reads the environment and checks every option (ConfigurationError).

import type { Dispatcher } from 'undici';
import { type WaitClock, waitClockOf } from '../../internal/wait-clock.js';
import { DEFAULT_SCOPES, type Scope } from '../../schemas/common.js';
import type { AccessTokenSource } from '../auth/strategies.js';
import { lowerCaseHeaders } from '../call/headers.js';
import type { Middleware } from '../call/middleware.js';
import { ConfigurationError } from '../errors/api-errors.js';
import { type RateLimitOptions, resolveRateLimit } from '../limits/rate-limit.js';
import { isLogLevel, type Logger, type LogLevel } from '../observe/logger.js';
import type { PaymentsMeter } from '../observe/metrics.js';
import type { PaymentsTracer } from '../observe/tracing.js';
import type { IntentStore } from '../stores/intent-store.js';
import type { RateLimitStore } from '../stores/rate-limit-store.js';
import type { BucketLimit } from '../stores/token-bucket.js';
import type { TokenStore } from '../stores/token-store.js';
import { processEnv } from '../transport/runtime.js';
import type { ReconcileMode } from '../types.js';
import {
  checkMeter,
  checkUrl,
  count,
  duration,
  intentStoreOption,
  middlewareList,
  missing,
  nonEmpty,
  normalizeScopes,
  reconcileMode,
} from './checks.js';

export type { AccessTokenSource, ReconcileMode };

/**
 * Options of {@link PaymentsClient}. Every option is optional when its environment variable is set.
 *
 * @example
 * const client = new PaymentsClient({
 *   clientId: process.env.PAYMENTS_CLIENT_ID,
 *   clientSecret: process.env.PAYMENTS_CLIENT_SECRET,
 *   baseUrl: 'https://payments.example.com',
 *   authUrl: 'https://auth.payments.example.com',
 *   maxRetries: 3,
 * });
 */
export interface PaymentsClientOptions {
  /** The OAuth client id of your machine client. @default process.env.PAYMENTS_CLIENT_ID */
  clientId?: string | undefined;
  /** The OAuth client secret (shown once in the admin portal). @default process.env.PAYMENTS_CLIENT_SECRET */
  clientSecret?: string | undefined;
  /**
   * The API root, without `/pos/v1` (a trailing `/pos/v1` is dropped). Must be `https://`;
   * `http://` only for loopback hosts.
   * @default process.env.PAYMENTS_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * The token issuer's root; tokens are minted at `{authUrl}/oauth2/token`.
   * @default process.env.PAYMENTS_AUTH_URL, else `baseUrl`
   */
  authUrl?: string | undefined;
  /**
   * Scopes to request, with or without the `svc/` prefix (sent with it).
   * @default ['svc/payments:create', 'svc/payments:read', 'svc/locations:read']
   */
  scopes?: readonly Scope[] | undefined;
  /** Retries after the first attempt, for calls that may be retried. @default 2 */
  maxRetries?: number | undefined;
  /** Timeout of one attempt in milliseconds (connect, headers and body). @default 30000 */
  timeoutMs?: number | undefined;
  /** Total time for a call, all attempts and waits included, in milliseconds. @default undefined (none) */
  deadlineMs?: number | undefined;
  /**
   * A `fetch` to use instead of the default transport (to run behind msw, or with your own
   * instrumentation).
   * @default undefined (on Node.js undici's dispatcher on a keep-alive agent, loaded on the first
   * request; on Bun, Deno, Workers and Vercel Edge the global `fetch`)
   */
  fetch?: typeof globalThis.fetch | undefined;
  /** An undici `Dispatcher` (Agent, Pool, MockAgent) for the built-in transport; Node.js only. @default a shared keep-alive Agent */
  dispatcher?: Dispatcher | undefined;
  /** An HTTP(S) proxy URL; requests go through an undici `ProxyAgent`; Node.js only. @default undefined */
  proxy?: string | undefined;
  /** Where log lines go (`console`, pino, winston). Lines never carry a secret. @default undefined (silent) */
  logger?: Logger | undefined;
  /** The least severe level written to `logger`. @default 'info' */
  logLevel?: LogLevel | undefined;
  /**
   * A bearer token (or a function returning one) to use instead of client credentials, for
   * example a POS user's token for order creation.
   * @default undefined (client credentials)
   */
  accessToken?: AccessTokenSource | undefined;
  /** Headers sent with every request (a request's own `headers` win). @default {} */
  defaultHeaders?: Record<string, string> | undefined;
  /**
   * Where the access token is shared with the other instances of your fleet (see docs/fleets.md):
   * one mint per refresh for all of them. The store holds a live token: guard it like the secret.
   * @default undefined (this client's own memory)
   */
  tokenStore?: TokenStore | undefined;
  /**
   * Wait for a slot of the rate limit before each attempt instead of provoking a 429: a tier of the
   * spec or your own figures, with a `store` to share the bucket with the fleet.
   * @default undefined (no client-side limit)
   */
  rateLimit?: RateLimitOptions | undefined;
  /**
   * Around-functions run once per call (not per attempt), the first outermost; see
   * `docs/observability.md`.
   * @default [] (none)
   */
  middleware?: readonly Middleware[] | undefined;
  /**
   * An OpenTelemetry `Tracer` (`trace.getTracer('my-service')`): one CLIENT span per call and the
   * W3C `traceparent` on every attempt. `@opentelemetry/api` is an optional peer dependency.
   * @default undefined (no tracing)
   */
  tracer?: PaymentsTracer | undefined;
  /**
   * An OpenTelemetry `Meter` (`metrics.getMeter('my-service')`): attempt and call durations, retries,
   * token mints, rate-limit waits and reconciliations (docs/observability.md lists them).
   * @default undefined (no metrics)
   */
  meter?: PaymentsMeter | undefined;
  /**
   * Where payment and refund intents are kept per idempotency key (docs/idempotency.md): the same
   * key never creates a second payment or refund among the clients sharing the store, across
   * restarts with a shared one. A fleet needs a shared store (`redisStores(...).intentStore`,
   * `postgresStores(...).intentStore`); the default keeps the guarantee within this process.
   * @default a MemoryIntentStore shared with the clients derived from this one
   */
  intentStore?: IntentStore | undefined;
  /**
   * After an ambiguous failure of a payment or refund, learn the outcome from the service's records
   * before answering (`'auto'`), or throw `outcomeUnknown: true` at once (`'off'`, as in 0.2.0).
   * @default 'auto'
   */
  reconcile?: ReconcileMode | undefined;
  /**
   * How long after a send whose answer was lost the service is taken to be done with it: a payment
   * absent from the order this long after its send did not land, and is sent again under its key.
   * Set it above the longest time the service may spend on a request (the spec names no bound).
   * @default 30000
   */
  settleMs?: number | undefined;
}

/** The options after defaults and checks. */
export interface ResolvedOptions {
  clientId: string | undefined;
  clientSecret: string | undefined;
  baseUrl: string;
  authUrl: string;
  scopes: string[];
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  fetch: typeof globalThis.fetch | undefined;
  dispatcher: Dispatcher | undefined;
  proxy: string | undefined;
  logger: Logger | undefined;
  logLevel: LogLevel;
  accessToken: AccessTokenSource | undefined;
  defaultHeaders: Record<string, string>;
  tokenStore: TokenStore | undefined;
  rateLimit: { limit: BucketLimit; store: RateLimitStore | undefined } | undefined;
  middleware: readonly Middleware[];
  tracer: PaymentsTracer | undefined;
  meter: PaymentsMeter | undefined;
  intentStore: IntentStore | undefined;
  reconcile: ReconcileMode;
  settleMs: number;
  /** Where the client's waits sleep: the real timers, or a manual-clock mock's (`mock.clientOptions()`). */
  waitClock: WaitClock;
}

type Env = Record<string, string | undefined>;

/**
 * Applies environment defaults and checks every option, throwing {@link ConfigurationError} with
 * the option's name on the first problem.
 */
export function resolveOptions(
  options: PaymentsClientOptions = {},
  env: Env = processEnv(),
): ResolvedOptions {
  const accessToken = options.accessToken;
  if (accessToken !== undefined && typeof accessToken !== 'function' && !nonEmpty(accessToken)) {
    throw new ConfigurationError('accessToken', 'must be a non-empty string or a function returning one.');
  }
  // An empty variable counts as unset (a blank line in a .env file).
  const fromEnv = (name: string) => env[name] || undefined;
  const clientId = options.clientId ?? fromEnv('PAYMENTS_CLIENT_ID');
  const clientSecret = options.clientSecret ?? fromEnv('PAYMENTS_CLIENT_SECRET');
  if (accessToken === undefined) {
    if (!nonEmpty(clientId)) throw missing('clientId', 'PAYMENTS_CLIENT_ID');
    if (!nonEmpty(clientSecret)) throw missing('clientSecret', 'PAYMENTS_CLIENT_SECRET');
  }
  const baseUrl = checkUrl(
    'baseUrl',
    options.baseUrl ?? fromEnv('PAYMENTS_BASE_URL'),
    'PAYMENTS_BASE_URL',
  ).replace(/\/pos\/v1$/, '');
  const authUrl = checkUrl(
    'authUrl',
    options.authUrl ?? fromEnv('PAYMENTS_AUTH_URL') ?? baseUrl,
    'PAYMENTS_AUTH_URL',
  );
  if (options.proxy !== undefined && !/^https?:\/\//.test(options.proxy)) {
    throw new ConfigurationError('proxy', 'must be an http:// or https:// URL.');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new ConfigurationError('fetch', 'must be a fetch-compatible function.');
  }
  if (options.logLevel !== undefined && !isLogLevel(options.logLevel)) {
    throw new ConfigurationError('logLevel', "must be one of 'debug', 'info', 'warn', 'error', 'off'.");
  }
  if (options.tracer !== undefined && typeof options.tracer?.startSpan !== 'function') {
    throw new ConfigurationError(
      'tracer',
      "must be an OpenTelemetry Tracer (trace.getTracer('my-service')).",
    );
  }
  return {
    clientId,
    clientSecret,
    baseUrl,
    authUrl,
    scopes: normalizeScopes(options.scopes ?? DEFAULT_SCOPES),
    maxRetries: count('maxRetries', options.maxRetries, 2),
    timeoutMs: duration('timeoutMs', options.timeoutMs, 30_000),
    deadlineMs: options.deadlineMs === undefined ? undefined : duration('deadlineMs', options.deadlineMs, 0),
    fetch: options.fetch,
    waitClock: waitClockOf(options),
    dispatcher: options.dispatcher,
    proxy: options.proxy,
    logger: options.logger,
    logLevel: options.logLevel ?? 'info',
    accessToken,
    defaultHeaders: lowerCaseHeaders(options.defaultHeaders),
    tokenStore: options.tokenStore,
    rateLimit: options.rateLimit && {
      limit: resolveRateLimit(options.rateLimit),
      store: options.rateLimit.store,
    },
    middleware: options.middleware === undefined ? [] : middlewareList(options.middleware),
    tracer: options.tracer,
    meter: checkMeter(options.meter),
    intentStore: intentStoreOption(options.intentStore),
    reconcile: reconcileMode(options.reconcile, 'auto'),
    settleMs: duration('settleMs', options.settleMs, 30_000),
  };
}
