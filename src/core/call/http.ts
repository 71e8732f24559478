/**
 * The one path every call takes: give it an id, run the middleware around it, get a token, send one
 * attempt at a time with a per-attempt timeout, let the pure retry policy decide what follows, and
 * finish its error in one place. With no listener, middleware or tracer, none of the observability
 * costs anything: no event object is built, no header object is copied.
 */
import type { z } from 'zod';
import type { SecretRegistry } from '../../internal/redact.js';
import { realClock, sleepOn, type WaitClock } from '../../internal/wait-clock.js';
import type { AuthStrategy } from '../auth/strategies.js';
import { type APIError, APIUserAbortError } from '../errors/api-errors.js';
import type { RateLimiter } from '../limits/limiter.js';
import { attemptLimit, decideRetry, type RetryDecision, throttleAfter } from '../limits/retry.js';
import type { EventSink } from '../observe/events.js';
import type { LogFn } from '../observe/logger.js';
import type { Transport, TransportResponse } from '../transport/transport.js';
import type { CoreSpec, RequestSpec, ResponseMeta } from '../types.js';
import { APIPromise, responseMeta } from './api-promise.js';
import {
  type AttemptContext,
  type AttemptResult,
  announceAttempt,
  announceRetry,
  failedAttempt,
  readAttempt,
} from './attempt.js';
import { bodyOf, CallState, callResult, queryString, withEnd } from './call-state.js';
import { deadlineError, finishError, waitForToken } from './final-error.js';
import { callHeaders } from './headers.js';
import { keyOf } from './idempotency-key.js';
import { type CallTracer, type Middleware, runMiddleware } from './middleware.js';
import type { Requester } from './requester.js';

/** What the core needs from the client. */
export interface CoreConfig {
  baseUrl: string;
  transport: Transport;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  /** Accept, User-Agent and the client's default headers, lower-case. */
  headers: Record<string, string>;
  events: EventSink;
  log: LogFn | undefined;
  /** The client-side rate limit, when the `rateLimit` option is set. */
  limiter?: RateLimiter | undefined;
  /** Adds what the SDK knows about an API call's failure before it is finished (the scope hint). */
  explain?: (error: unknown, spec: RequestSpec) => unknown;
  /** The client's secrets, for the one redaction of a finished error. */
  secrets: SecretRegistry;
  /** Around every call, the first outermost. @default [] */
  middleware: readonly Middleware[];
  /** Around the middleware and the attempts: the call's span, when the client has a tracer. */
  trace?: CallTracer | undefined;
  /** Where the retry back-off sleeps: a manual-clock mock's clock, else the real timers. */
  waitClock?: WaitClock | undefined;
}

/** Sends requests for one client (and the clients derived from it share its auth and transport). */
export class HttpCore implements Requester {
  /** Set by the client after construction (minting a token goes through {@link exchange}). */
  auth: AuthStrategy | undefined;
  readonly #config: CoreConfig;
  readonly #redactHeaders: (headers: Record<string, string>) => Record<string, string>;
  readonly #callContext: AttemptContext;
  readonly #exchangeContext: AttemptContext;

  constructor(config: CoreConfig) {
    this.#config = config;
    this.#callContext = { events: config.events, log: config.log };
    this.#exchangeContext = { events: undefined, log: config.log };
    const secrets = config.secrets;
    this.#redactHeaders = (headers) => secrets.headers(headers);
  }

  /**
   * One API call: an id, the middleware, the attempts, one `end` event. The intent layer around the
   * core (src/intents/) sends a payment or refund creation through here like any other call, without
   * its key (the key is the intent store's, never sent).
   */
  request<S extends z.ZodType>(spec: RequestSpec<S>): APIPromise<z.infer<S>> {
    // The call's key, checked once: an order's becomes its header.
    let key: string | undefined;
    try {
      key = keyOf(spec);
    } catch (error) {
      return APIPromise.rejected(error); // a key that is not one: refused before anything is sent
    }
    const meta = responseMeta();
    meta.redactHeaders = this.#redactHeaders;
    const headers = callHeaders(this.#config.headers, spec, key);
    // A promise only for an order key that Web Crypto hashes (the build for other runtimes).
    if (!(headers instanceof Promise)) return APIPromise.from(this.#call(spec, headers, meta), meta);
    const data = headers.then((sent) => this.#call(spec, sent, meta));
    return APIPromise.from(data, meta);
  }

  /** {@link request}'s call once its headers are known: the attempts, and around them what wants to be. */
  #call<S extends z.ZodType>(
    spec: RequestSpec<S>,
    headers: Record<string, string>,
    meta: ResponseMeta,
  ): Promise<z.infer<S>> {
    const { events, middleware, trace } = this.#config;
    const sentKey = spec.retry === 'keyed' ? headers['idempotency-key'] : undefined;
    const state = new CallState(spec.method, spec.route ?? spec.path, spec.path, headers, sentKey);
    // The hot path: no tracer, middleware or `end` listener, so nothing around the attempts.
    if (!trace && middleware.length === 0 && !events.wants('end'))
      return this.#attempts(spec, state, headers, meta, true);
    const data = this.#wrapped(spec, state, headers, meta);
    return events.wants('end') ? withEnd(data, events, state) : data;
  }

  /** Attempts and retries without a call's id, middleware or events: the token grant (never keyed). */
  exchange<S extends z.ZodType>(spec: CoreSpec<S>): Promise<z.infer<S>> {
    const headers = callHeaders(this.#config.headers, spec, undefined) as Record<string, string>;
    const state = new CallState(spec.method, spec.route ?? spec.path, spec.path, headers, undefined);
    return this.#attempts(spec, state, headers, undefined, false);
  }

  /**
   * The attempts inside the middleware, inside the call's span when there is a tracer (promise
   * callbacks, not async frames: tracing is measured). With neither, the attempts alone.
   */
  #wrapped<S extends z.ZodType>(
    spec: RequestSpec<S>,
    state: CallState,
    headers: Record<string, string>,
    meta: ResponseMeta,
  ): Promise<z.infer<S>> {
    const { middleware, trace } = this.#config;
    if (!trace && middleware.length === 0) return this.#attempts(spec, state, headers, meta, true);
    const inner = (): Promise<z.infer<S>> => {
      if (middleware.length === 0) return this.#attempts(spec, state, headers, meta, true);
      // Attempts send a copy: the token they add never shows in `call.headers`.
      const terminal = () =>
        this.#attempts(spec, state, Object.assign({}, headers), meta, true).then((data) =>
          callResult(data, meta),
        );
      return runMiddleware(middleware, state, terminal).then((result) => {
        meta.status = result.status;
        meta.requestId = result.requestId;
        return result.data as z.infer<S>;
      });
    };
    return trace ? (trace(state, meta, inner) as Promise<z.infer<S>>) : inner();
  }

  async #attempts<S extends z.ZodType>(
    spec: CoreSpec<S>,
    state: CallState,
    headers: Record<string, string>,
    meta: ResponseMeta | undefined,
    isCall: boolean,
  ): Promise<z.infer<S>> {
    const cfg = this.#config;
    const opts = spec.options;
    const signal = opts?.signal;
    const maxRetries = opts?.maxRetries ?? cfg.maxRetries;
    const timeoutMs = opts?.timeoutMs ?? cfg.timeoutMs;
    const deadlineMs = opts?.deadlineMs ?? cfg.deadlineMs;
    const deadlineAt = deadlineMs === undefined ? undefined : Date.now() + deadlineMs;
    const origin = spec.origin !== undefined && spec.auth === false ? spec.origin : cfg.baseUrl;
    const url = origin + spec.path + queryString(spec.query);
    const body = bodyOf(spec);
    const ctx = isCall ? this.#callContext : this.#exchangeContext;
    const auth = spec.auth === false ? undefined : this.auth;
    let retriesDone = 0;
    let replayed = false;
    // Whether an attempt may have been processed: one failed ambiguously, or one was in flight.
    let ambiguous = false;
    let inFlight = false;
    let decision: (RetryDecision & { action: 'throw' }) | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        if (signal?.aborted) throw new APIUserAbortError();
        let token: string | undefined;
        if (auth) {
          token = auth.current?.() ?? (await waitForToken(auth, signal, spec, deadlineAt, deadlineMs));
          headers.authorization = `Bearer ${token}`;
          const slot = cfg.limiter?.acquire(signal, deadlineAt);
          if (slot) {
            const waitFrom = Date.now();
            await slot;
            state.rateLimitWaitMs = Date.now() - waitFrom;
          }
        }
        const limit = attemptLimit(timeoutMs, deadlineAt === undefined ? undefined : deadlineAt - Date.now());
        if (limit <= 0) throw deadlineError(spec, deadlineMs);
        inFlight = true;
        state.attempts = attempt;
        const started = announceAttempt(ctx, spec, state);
        let result: AttemptResult<z.infer<S>> | undefined;
        let res: TransportResponse | undefined;
        try {
          res = await cfg.transport({
            method: spec.method,
            url,
            headers,
            body,
            signal,
            timeoutMs: limit,
            unrepeatable: spec.retry === 'unsafe',
          });
        } catch (cause) {
          result = failedAttempt(spec, cause, limit, url);
        }
        if (res) result = readAttempt(ctx, spec, state, res, started, meta);
        inFlight = false;
        if (!result) throw new Error('unreachable: an attempt ends with a response or a failure');
        if (result.ok) return result.value;
        const { failure, error } = result;
        const throttle = throttleAfter(failure);
        if (throttle !== undefined) cfg.limiter?.backoff(throttle);
        // A refused token is dropped by the auth strategy (a fact the policy decides a replay on).
        let code: string | undefined;
        let tokenRejected = false;
        if (token !== undefined && auth && failure.kind === 'status' && failure.status === 401) {
          code = (error as APIError).code;
          tokenRejected = auth.unauthorized(token, code);
        }
        const next = decideRetry({
          failure,
          mode: spec.retry,
          retriesDone,
          maxRetries,
          remainingMs: deadlineAt === undefined ? undefined : deadlineAt - Date.now(),
          random: Math.random(),
          limitMs: limit,
          timeoutMs,
          tokenRejected,
          replayed,
        });
        if (next.ambiguous) ambiguous = true;
        if (next.action === 'replay') {
          replayed = true;
          cfg.log?.(
            'info',
            `${spec.method} ${spec.path}: token rejected (${code}); replaying once`,
            state.logFields,
          );
          continue;
        }
        if (next.action === 'throw') {
          if (next.why === 'deadline') throw deadlineError(spec, deadlineMs, error);
          decision = next;
          throw error;
        }
        announceRetry(ctx, spec, state, failure, error, next.delayMs);
        await sleepOn(cfg.waitClock ?? realClock, next.delayMs, signal, APIUserAbortError);
        retriesDone++;
      }
    } catch (error) {
      // An error escaping an attempt in flight (the caller's abort) may follow a processed request.
      const explained = isCall
        ? cfg.explain
          ? cfg.explain(error, spec)
          : error
        : spec.explain
          ? spec.explain(error)
          : error;
      const final = finishError({
        error: explained,
        spec,
        // The key as the caller gave it (an order's string key is sent as its UUID v5), or the one
        // the SDK made: what a rerun must pass again.
        idempotencyKey: (opts?.idempotencyKey as string | undefined) ?? headers['idempotency-key'],
        sentKey: headers['idempotency-key'],
        ambiguous: ambiguous || inFlight,
        decision,
        secrets: cfg.secrets,
      });
      final.callId = state.callId;
      if (final.outcomeUnknown) cfg.log?.('warn', final.message, state.logFields);
      throw final;
    }
  }
}
