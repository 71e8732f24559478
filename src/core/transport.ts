import { Agent, type Dispatcher, ProxyAgent, request } from 'undici';

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

// undici's own per-phase timeouts, which the undici transport uses as its attempt timeout.
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Classifies a transport failure; an unknown error counts as `sent`, the cautious choice. */
export function classifyFailure(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const phase =
    code && CONNECT_CODES.has(code) ? 'connect' : code && TIMEOUT_CODES.has(code) ? 'timeout' : 'sent';
  return new TransportError(phase, code, { cause: error });
}

let sharedAgent: Agent | undefined;

// One keep-alive pool for every client of the process that brings no dispatcher of its own.
function defaultAgent(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  return sharedAgent;
}

/** The dispatcher the undici transport uses: the caller's, a proxy agent, or the shared agent. */
export function makeDispatcher(options: {
  dispatcher?: Dispatcher | undefined;
  proxy?: string | undefined;
}): Dispatcher {
  if (options.dispatcher) return options.dispatcher;
  if (options.proxy) return new ProxyAgent(options.proxy);
  return defaultAgent();
}

// undici checks its own timeouts on a shared 500 ms tick; shorter timeouts need a timer of their own.
const UNDICI_TIMEOUT_MIN_MS = 2_000;

/**
 * The default transport: undici `request()`, faster than `fetch` for small JSON exchanges. An
 * attempt timeout of 2 s or more is undici's own headers and body timeouts (no timer or
 * AbortController per request: this is the hot path); a shorter one gets a precise timer.
 */
export function undiciTransport(dispatcher: Dispatcher): Transport {
  const send = async (
    req: TransportRequest,
    signal: AbortSignal | undefined,
    timeout: number | undefined,
  ) => {
    const res = await request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      dispatcher,
    });
    const bodyText = await res.body.text();
    return { status: res.statusCode, headers: flattenHeaders(res.headers), bodyText };
  };
  return async (req) => {
    if (req.timeoutMs < UNDICI_TIMEOUT_MIN_MS) {
      return withTimeout(req, (signal) => send(req, signal, undefined));
    }
    // The common path: undici's own timeouts, one async frame, no timer or AbortController per call.
    try {
      return await send(req, req.signal, req.timeoutMs);
    } catch (error) {
      throw classifyFailure(error);
    }
  };
}

/** A transport over a `fetch` function (the caller's, or one that msw intercepts). */
export function fetchTransport(fetchFn: typeof globalThis.fetch): Transport {
  return (req) =>
    // fetch has no timeout option: a timer aborts the attempt.
    withTimeout(req, async (signal) => {
      const res = await fetchFn(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal,
      });
      const bodyText = res.text();
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return { status: res.status, headers, bodyText: await bodyText };
    });
}

/**
 * Runs one exchange, classifying its failure. With `timer`, an own timer aborts the exchange after
 * `req.timeoutMs` (the caller's signal too); without, the caller's signal is handed on as it is.
 */
async function withTimeout(
  req: TransportRequest,
  run: (signal: AbortSignal | undefined) => Promise<TransportResponse>,
): Promise<TransportResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const handle = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onAbort = () => controller.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  // The caller may have aborted while the core awaited a token: an abort event will not come again.
  if (req.signal?.aborted) controller.abort();
  try {
    return await run(controller.signal);
  } catch (error) {
    throw timedOut ? new TransportError('timeout', undefined, { cause: error }) : classifyFailure(error);
  } finally {
    clearTimeout(handle);
    req.signal?.removeEventListener('abort', onAbort);
  }
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
