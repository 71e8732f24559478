/**
 * The default transport on Node.js: undici's dispatcher API with a handler of our own. undici's
 * `request()` wraps every exchange in an `AsyncResource`, a Node.js `Readable` for the body and a
 * promise machinery to consume it; the SDK reads small JSON bodies whole, so it collects the
 * chunks itself and skips all three (the benchmark's "raw undici dispatch" row shows the limit).
 */
import diagnostics_channel from 'node:diagnostics_channel';
import type { Dispatcher } from 'undici';
import { type Attempt, AttemptClock } from './attempt-clock.js';
import {
  classifyFailure,
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

type Undici = typeof import('undici');

/**
 * Whether an undici instrumentation listens (OpenTelemetry's subscribes to this channel): it
 * injects the `traceparent` of its own span, a child of the call's span, so the call's own header
 * is left out rather than sent twice (two `traceparent` headers make a trace invalid).
 */
const requestCreated = diagnostics_channel.channel('undici:request:create');
const instrumented = () => requestCreated.hasSubscribers;

/** The headers without the call's trace context (the instrumentation sends its own). */
function untraced(headers: Record<string, string>): Record<string, string> {
  const { traceparent: _, tracestate: __, ...rest } = headers;
  return rest;
}
let undiciModule: Promise<Undici> | undefined;
let sharedAgent: Dispatcher | undefined;

/**
 * undici, imported on the first request rather than with the package: importing the SDK stays
 * cheap, and a runtime that never sends through undici never loads it.
 */
function loadUndici(): Promise<Undici> {
  undiciModule ??= import('undici');
  return undiciModule;
}

/** The dispatcher the undici transport uses: the caller's, a proxy agent, or the shared agent. */
export function makeDispatcher(
  undici: Undici,
  options: { dispatcher?: Dispatcher | undefined; proxy?: string | undefined },
): Dispatcher {
  if (options.dispatcher) return options.dispatcher;
  if (options.proxy) return new undici.ProxyAgent(options.proxy);
  // One keep-alive pool for every client of the process that brings no dispatcher of its own.
  sharedAgent ??= new undici.Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  return sharedAgent;
}

/**
 * The default transport. The client's {@link AttemptClock} ends each attempt at `timeoutMs` from
 * its start, connection wait and body included: the attempt rejects at once, and the exchange is
 * aborted as soon as undici hands it a connection (a request that never got one was not sent).
 */
export function undiciTransport(
  options: { dispatcher?: Dispatcher | undefined; proxy?: string | undefined },
  clock: AttemptClock = new AttemptClock(),
): Transport {
  let undici: Undici | undefined;
  let dispatcher: Dispatcher | undefined;
  const origins = new Map<string, string>();
  let last: { prefix: string; origin: string } | undefined;
  const send = (req: TransportRequest): Promise<TransportResponse> => {
    // The origin as undici keys its pools (`new URL(...).origin`: lower-case, no default port),
    // computed once per base URL; the path is sent as the core built it (already encoded).
    const url = req.url;
    const at = url.indexOf('/', url.indexOf('//') + 2);
    let origin: string | undefined;
    // The same base URL as last time (nearly always): no substring, no lookup.
    if (last !== undefined && at === last.prefix.length && url.startsWith(last.prefix)) origin = last.origin;
    else {
      const prefix = at < 0 ? url : url.slice(0, at);
      origin = origins.get(prefix);
      if (origin === undefined) {
        origin = new URL(prefix).origin;
        if (origins.size < 16) origins.set(prefix, origin);
      }
      last = { prefix, origin };
    }
    const attempt = clock.start(req.timeoutMs, req.signal);
    return new Promise<TransportResponse>((resolve, reject) => {
      const exchange = new Exchange(attempt, clock, (undici as Undici).util.parseHeaders, resolve, reject);
      if (attempt.aborted) return exchange.onError(attempt.reason);
      attempt.onAbort(() => exchange.abort());
      try {
        (dispatcher as Dispatcher).dispatch(
          {
            origin,
            path: at < 0 ? '/' : url.slice(at),
            method: req.method as Dispatcher.HttpMethod,
            headers:
              req.headers.traceparent !== undefined && instrumented() ? untraced(req.headers) : req.headers,
            body: req.body,
          },
          exchange as unknown as Dispatcher.DispatchHandler,
        );
      } catch (error) {
        exchange.onError(error);
      }
    });
  };
  return async (req) => {
    // The first request loads undici, before its attempt's time starts.
    if (!undici) {
      try {
        undici = await loadUndici();
        dispatcher = makeDispatcher(undici, options);
      } catch (error) {
        throw new TransportError('connect', undefined, { cause: error });
      }
    }
    return send(req);
  };
}

type ParseHeaders = (raw: Buffer[]) => Record<string, string | string[] | undefined>;

/** One exchange: undici's (legacy, stable across undici 6 and 7) handler interface. */
class Exchange {
  /** undici's abort, given when it is about to write the request (not before). */
  #abort: ((reason: unknown) => void) | undefined = undefined;
  #settled = false;
  #status = 0;
  #headers: Record<string, string> | undefined = undefined;
  #chunks: Buffer[] = [];

  constructor(
    readonly attempt: Attempt,
    readonly clock: AttemptClock,
    readonly parseHeaders: ParseHeaders,
    readonly resolve: (res: TransportResponse) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  /** The attempt's time is up or the caller aborted: reject now, stop the exchange when we can. */
  abort(): void {
    const reason = this.attempt.reason;
    this.onError(reason);
    this.#abort?.(reason);
  }

  onConnect(abort: (reason: unknown) => void): void {
    // Aborted while waiting for a connection: the request is never written.
    if (this.#settled) abort(this.attempt.reason ?? new Error('attempt ended'));
    else this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[]): boolean {
    // `1xx` answers (103 Early Hints, 100 Continue) precede the real one; the attempt's time runs on.
    if (status < 200) return true;
    this.#status = status;
    this.#headers = flatten(this.parseHeaders(raw));
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.clock.end(this.attempt);
    const chunks = this.#chunks;
    let bodyText =
      chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    // What TextDecoder (and so `fetch` and undici's `body.text()`) drops: a leading byte order mark.
    if (bodyText.charCodeAt(0) === 0xfeff) bodyText = bodyText.slice(1);
    this.resolve({ status: this.#status, headers: this.#headers ?? {}, bodyText });
  }

  onError(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.clock.end(this.attempt);
    // Out of time before undici wrote a byte (no connection, or none free in the pool): nothing was
    // sent, which makes even a payment safe to retry.
    this.reject(
      !this.attempt.timedOut
        ? classifyFailure(error)
        : this.#abort
          ? new TransportError('timeout', undefined, { cause: error })
          : new TransportError('connect', 'UND_ERR_CONNECT_TIMEOUT', { cause: error }),
    );
  }
}

/** Lower-case names (undici's), repeated headers joined as `fetch` joins them; in place. */
function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value !== 'string') {
      if (value === undefined) delete headers[name];
      else headers[name] = value.join(', ');
    }
  }
  return headers as Record<string, string>;
}
