/**
 * A fault to inject into the next matching request(s), for testing a client's error handling.
 *
 * @example
 * mock.failNext({ method: 'POST', path: '/pos/v1/orders', status: 503, retryAfter: 1, times: 2 });
 */
export interface FaultSpec {
  /** Only requests with this method (any case). @default any */
  method?: string;
  /** Only requests whose path equals this string or matches this RegExp. @default any */
  path?: string | RegExp;
  /** The HTTP status to answer with (400-599). Without it (and without `network`) the request is only delayed. */
  status?: number;
  /**
   * Drop the connection instead of answering (in-process: `fetch` rejects with a TypeError; on
   * loopback: the socket is destroyed).
   * @default false
   */
  network?: boolean;
  /**
   * Milliseconds on the mock clock to wait before answering (then the fault, or the normal answer).
   * With a manual clock the answer waits until `mock.clock.advance()` passes it (a client's timeout
   * fires first); with a real-time clock it is a real delay.
   * @default 0
   */
  delayMs?: number;
  /** The error code of the body. @default derived from the status (503 -> service_unavailable, ...) */
  error?: string;
  /** The message of the body. @default 'Injected fault' */
  message?: string;
  /** Seconds for a `Retry-After` header. @default none */
  retryAfter?: number;
  /** How many matching requests fail. @default 1 */
  times?: number;
}

const DEFAULT_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'invalid_token',
  403: 'permission_denied',
  404: 'not_found',
  409: 'idempotency_conflict',
  410: 'gone',
  413: 'invalid_request',
  422: 'validation_error',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** The error code a fault answers with when it names none. */
export function defaultErrorCode(status: number): string {
  return DEFAULT_CODES[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
}

/** A queue of injected faults; each matching request consumes one use of the first match. */
export class FaultQueue {
  private faults: { spec: FaultSpec; left: number }[] = [];

  add(spec: FaultSpec): void {
    const { status } = spec;
    if (status !== undefined && (!Number.isInteger(status) || status < 400 || status > 599)) {
      throw new RangeError('failNext: status must be an HTTP error status (400-599)');
    }
    if (status === undefined && !spec.network && !spec.delayMs) {
      throw new RangeError('failNext: give a status, network: true, or delayMs');
    }
    this.faults.push({ spec, left: spec.times ?? 1 });
  }

  /** Takes the first fault matching the request, or returns undefined. */
  take(method: string, pathname: string): FaultSpec | undefined {
    const index = this.faults.findIndex(({ spec }) => matches(spec, method, pathname));
    if (index < 0) return undefined;
    const entry = this.faults[index]!;
    entry.left -= 1;
    if (entry.left <= 0) this.faults.splice(index, 1);
    return entry.spec;
  }

  clear(): void {
    this.faults = [];
  }
}

function matches(spec: FaultSpec, method: string, pathname: string): boolean {
  if (spec.method && spec.method.toUpperCase() !== method.toUpperCase()) return false;
  if (spec.path === undefined) return true;
  return typeof spec.path === 'string' ? spec.path === pathname : spec.path.test(pathname);
}
