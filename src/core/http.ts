/**
 * The one path every call takes: build the request, get a token, send one attempt at a time with a
 * per-attempt timeout, read the answer, and let the pure retry policy decide what follows.
 */
import type { z } from 'zod';
import { sleep } from '../internal/sleep.js';
import type { AuthStrategy } from './auth.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  type PaymentsError,
  RequestValidationError,
} from './errors.js';
import type { EmitFn, RetryReason } from './events.js';
import { deadlineError, explainNoRetry, finishError, waitForToken } from './final-error.js';
import type { RateLimiter } from './limiter.js';
import type { LogFn } from './logger.js';
import { lowerCaseHeaders } from './options.js';
import { errorFromResponse, parseSuccess } from './response.js';
import { type AttemptFailure, decideRetry, isAmbiguous } from './retry.js';
import { classifyFailure, type Transport } from './transport.js';
import type { RequestSpec } from './types.js';

/** What the core needs from the client. */
export interface CoreConfig {
  baseUrl: string;
  transport: Transport;
  maxRetries: number;
  timeoutMs: number;
  deadlineMs: number | undefined;
  /** Accept, User-Agent and the client's default headers, lower-case. */
  headers: Record<string, string>;
  emit: EmitFn;
  log: LogFn | undefined;
  /** The client-side rate limit, when the `rateLimit` option is set. */
  limiter?: RateLimiter | undefined;
}

/** Where a request goes when it is not an API call (the token endpoint): a full URL and a form body. */
export interface RawTarget {
  url: string;
  form: string;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: PaymentsError; failure: AttemptFailure };

const REASON: Record<AttemptFailure['kind'], RetryReason> = {
  connect: 'connection',
  sent: 'connection',
  timeout: 'timeout',
  status: 'status',
  invalid_response: 'status',
};

/** Sends requests for one client. */
export class HttpCore {
  /** Set by the client after construction (minting a token goes through this core too). */
  auth: AuthStrategy | undefined;
  readonly #config: CoreConfig;

  constructor(config: CoreConfig) {
    this.#config = config;
  }

  /**
   * Runs one call to completion: attempts, token replay, retries, waits. Every error leaves through
   * one place ({@link finishError}), which gives an order creation's error its key and flags an
   * unknown outcome when any attempt may have been processed, whatever ended the call.
   */
  async request<S extends z.ZodType>(spec: RequestSpec<S>, raw?: RawTarget): Promise<z.infer<S>> {
    const cfg = this.#config;
    const opts = spec.options;
    const signal = opts?.signal;
    const maxRetries = opts?.maxRetries ?? cfg.maxRetries;
    const timeoutMs = opts?.timeoutMs ?? cfg.timeoutMs;
    const deadlineMs = opts?.deadlineMs ?? cfg.deadlineMs;
    const deadlineAt = deadlineMs === undefined ? undefined : Date.now() + deadlineMs;
    const url = raw ? raw.url : cfg.baseUrl + spec.path + queryString(spec.query);
    const headers = this.#headers(spec, raw);
    const body = raw ? raw.form : spec.body === undefined ? undefined : serialize(spec);
    const auth = raw || spec.auth === false ? undefined : this.auth;
    let retriesDone = 0;
    let replayed = false;
    // Whether an attempt may have been processed: one failed ambiguously, or one was in flight.
    let ambiguous = false;
    let inFlight = false;
    try {
      for (let attempt = 1; ; attempt++) {
        if (signal?.aborted) throw new APIUserAbortError();
        let token: string | undefined;
        if (auth) {
          token = auth.current?.() ?? (await waitForToken(auth, signal, spec, deadlineAt, deadlineMs));
          headers.authorization = `Bearer ${token}`;
          const slot = cfg.limiter?.acquire(signal, deadlineAt);
          if (slot) await slot;
        }
        const remaining = deadlineAt === undefined ? undefined : deadlineAt - Date.now();
        if (remaining !== undefined && remaining <= 0) throw deadlineError(spec, deadlineMs);
        const byDeadline = remaining !== undefined && remaining < timeoutMs;
        const limit = byDeadline ? remaining : timeoutMs;
        inFlight = true;
        const result = await this.#attempt(spec, url, headers, body, attempt, limit, signal);
        inFlight = false;
        if (result.ok) return result.value;
        const { failure, error } = result;
        if (failure.kind === 'status' && failure.status === 429)
          cfg.limiter?.backoff(failure.retryAfterMs ?? 1000);
        if (isAmbiguous(failure)) ambiguous = true;
        if (byDeadline && failure.kind === 'timeout') throw deadlineError(spec, deadlineMs, error);
        if (token !== undefined && auth && failure.kind === 'status' && failure.status === 401) {
          // A token that expired in flight or was rotated: one fresh token, one replay, not a retry.
          const curable = auth.unauthorized(token, (error as APIError).code);
          if (curable && !replayed) {
            replayed = true;
            cfg.log?.(
              'info',
              `${spec.method} ${spec.path}: token rejected (${(error as APIError).code}); replaying once`,
            );
            continue;
          }
        }
        const decision = decideRetry({
          failure,
          mode: spec.retry,
          retriesDone,
          maxRetries,
          remainingMs: deadlineAt === undefined ? undefined : deadlineAt - Date.now(),
          random: Math.random(),
        });
        if (decision.action === 'throw') throw explainNoRetry(error, decision);
        const status = failure.kind === 'status' ? failure.status : undefined;
        cfg.emit('retry', {
          method: spec.method,
          path: spec.path,
          attempt,
          delayMs: decision.delayMs,
          reason: REASON[failure.kind],
          ...(status === undefined ? {} : { status }),
        });
        cfg.log?.(
          'warn',
          `${spec.method} ${spec.path} failed (${error.message}); retrying in ${decision.delayMs} ms`,
        );
        await sleep(decision.delayMs, signal);
        retriesDone++;
      }
    } catch (error) {
      // An error escaping an attempt in flight (the caller's abort) may follow a processed request.
      const final = finishError(error, spec, headers['idempotency-key'], ambiguous || inFlight);
      if (final.outcomeUnknown) cfg.log?.('warn', final.message);
      throw final;
    }
  }

  #headers(spec: RequestSpec, raw: RawTarget | undefined): Record<string, string> {
    const opts = spec.options;
    const headers = opts?.headers
      ? { ...this.#config.headers, ...lowerCaseHeaders(opts.headers) }
      : { ...this.#config.headers };
    if (raw) headers['content-type'] = 'application/x-www-form-urlencoded';
    else if (spec.body !== undefined) headers['content-type'] = 'application/json';
    // One key per call, so every attempt of an order creation is the same order to the service.
    // A key given as a header counts as the caller's key too.
    const key =
      opts?.idempotencyKey ??
      headers['idempotency-key'] ??
      (spec.retry === 'keyed' ? crypto.randomUUID() : undefined);
    if (key !== undefined) headers['idempotency-key'] = key;
    return headers;
  }

  async #attempt<S extends z.ZodType>(
    spec: RequestSpec<S>,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    attempt: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Attempt<z.infer<S>>> {
    const { emit, log, transport } = this.#config;
    const { method, path } = spec;
    emit('request', { method, path, attempt });
    log?.('debug', `${method} ${path} (attempt ${attempt})`);
    const started = Date.now();
    let res: Awaited<ReturnType<Transport>>;
    try {
      res = await transport({ method, url, headers, body, signal, timeoutMs });
    } catch (cause) {
      if (signal?.aborted) throw new APIUserAbortError();
      const failure = classifyFailure(cause);
      const code = failure.code ? ` (${failure.code})` : '';
      if (failure.phase === 'timeout') {
        const error = new APIConnectionTimeoutError(
          `${method} ${path} got no complete response within ${timeoutMs} ms${code}.`,
          { cause: failure },
        );
        return { ok: false, error, failure: { kind: 'timeout' } };
      }
      const host = URL.parse(url)?.host ?? url;
      const what =
        failure.phase === 'connect'
          ? `could not connect to ${host}; nothing was sent`
          : `lost the connection to ${host} after the request was sent`;
      const error = new APIConnectionError(`${method} ${path} ${what}${code}.`, { cause: failure });
      return { ok: false, error, failure: { kind: failure.phase } };
    }
    const durationMs = Date.now() - started;
    const { status } = res;
    if (status >= 200 && status < 300) {
      const parsed = parseSuccess(res, spec.response, `${method} ${path}`);
      emit('response', {
        method,
        path,
        status,
        attempt,
        durationMs,
        requestId: parsed.ok ? parsed.requestId : parsed.error.requestId,
      });
      log?.('debug', `${method} ${path} -> ${status} (${durationMs} ms)`);
      if (parsed.ok) return { ok: true, value: parsed.value };
      const failure = { kind: 'invalid_response', status, unreadable: parsed.unreadable } as const;
      return { ok: false, error: parsed.error, failure };
    }
    const error = errorFromResponse(res);
    emit('response', { method, path, status, attempt, durationMs, requestId: error.requestId });
    log?.(
      'debug',
      `${method} ${path} -> ${status} (${durationMs} ms, request_id ${error.requestId ?? 'none'})`,
    );
    return { ok: false, error, failure: { kind: 'status', status, retryAfterMs: error.retryAfterMs } };
  }
}

/** The JSON body; a value JSON cannot carry (a BigInt, a cycle) is refused before anything is sent. */
function serialize(spec: RequestSpec): string {
  try {
    return JSON.stringify(spec.body);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
    throw new RequestValidationError(`${spec.method} ${spec.path} body`, [
      { path: [], message: `is not JSON (${why})` },
    ]);
  }
}

function queryString(query: RequestSpec['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
