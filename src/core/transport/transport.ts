// The transport contract (one request in, a whole response out), the classification of transport
// failures by phase (connect, sent, timeout), and a transport over any `fetch` function.
import { type Attempt, AttemptClock } from './attempt-clock.js';
import type { OwnConnection } from './own-connection.js';

/** One HTTP exchange as the core hands it to a transport. */
export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The caller's signal; on abort the transport rejects (the core reports the abort). */
  signal: AbortSignal | undefined;
  /** The time this attempt may take, from sending to the end of the body. */
  timeoutMs: number;
  /**
   * The request must reach the service at most once (retry mode `unsafe`: a payment or refund
   * creation, any write the service takes without an `Idempotency-Key`). The transport sends it
   * where the runtime cannot resend it on its own: on Deno, on a connection of its own.
   */
  unrepeatable: boolean;
}

/** A response with its whole body read. */
export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  bodyText: string;
}

/** Sends one request and reads the whole body. Failures are {@link TransportError}s. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

/**
 * Where an attempt failed, which decides whether a request may have reached the service:
 * - `connect`: no connection was ever established, so nothing was sent (safe to retry anything);
 * - `sent`: the connection broke after the request may have been sent (reset, socket closed);
 * - `timeout`: no complete answer within the attempt's time.
 * A caller's abort is told apart by the core, which checks the caller's signal.
 */
export type FailurePhase = 'connect' | 'sent' | 'timeout';

/** A transport-level failure, classified. The cause keeps the original error. */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    readonly phase: FailurePhase,
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(
      `${phase === 'connect' ? 'connection failed' : phase === 'sent' ? 'connection lost' : 'timed out'}${code ? ` (${code})` : ''}`,
      options,
    );
  }
}

// Errors raised before any byte of the request could reach the service.
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** The error code of `error` or of its cause chain (`fetch` wraps the socket error in `cause`). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// undici's idle timeouts, which a caller's own dispatcher may set shorter than the attempt's time.
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Classifies a transport failure; an unknown error counts as `sent`, the cautious choice. */
export function classifyFailure(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const phase =
    code && CONNECT_CODES.has(code) ? 'connect' : code && TIMEOUT_CODES.has(code) ? 'timeout' : 'sent';
  return new TransportError(phase, code, { cause: error });
}

/**
 * A transport over a `fetch` function (the caller's, or one that msw intercepts). With
 * `ownConnection` (the global `fetch` on Deno), an unrepeatable request goes out on a connection of
 * its own, which the runtime never resends on.
 */
export function fetchTransport(
  fetchFn: typeof globalThis.fetch,
  clock: AttemptClock = new AttemptClock(),
  ownConnection?: OwnConnection,
): Transport {
  return async (req) => {
    // fetch takes nothing but an AbortSignal; the clock (not a timer per request) aborts it.
    const controller = new AbortController();
    const init: RequestInit = {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: controller.signal,
    };
    let release: (() => void) | undefined;
    if (req.unrepeatable && ownConnection) {
      try {
        release = ownConnection(init);
      } catch (error) {
        // No connection could be set up, so nothing was sent.
        throw new TransportError('connect', undefined, { cause: error });
      }
    }
    const attempt = clock.start(req.timeoutMs, req.signal);
    if (attempt.aborted) controller.abort();
    else attempt.onAbort(() => controller.abort());
    try {
      const res = await fetchFn(req.url, init);
      const bodyText = res.text();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: res.status, headers, bodyText: await bodyText };
    } catch (error) {
      throw failureOf(attempt, error);
    } finally {
      clock.end(attempt);
      release?.();
    }
  };
}

/**
 * What ended a failed attempt, from what the SDK knows rather than from the runtime's error (each
 * runtime surfaces an aborted exchange differently): its clock fired, a timeout; else the failure
 * as classified (the core tells a caller's abort apart by the caller's signal).
 */
function failureOf(attempt: Attempt, error: unknown): TransportError {
  return attempt.timedOut
    ? new TransportError('timeout', undefined, { cause: error })
    : classifyFailure(error);
}
