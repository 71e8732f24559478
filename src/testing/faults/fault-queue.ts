// FaultQueue, the queue of injected faults (`mock.failNext`) that requests consume on a match, and
// the default error code of a fault's status.
import type { Incoming } from '../engine/incoming.js';
import { type FaultSpec, validateFault } from './fault-spec.js';

export type { FaultBody, FaultPhase, FaultSpec } from './fault-spec.js';

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

/** A queue of injected faults (`mock.failNext`); each matching request consumes one use of the first match. */
export class FaultQueue {
  private faults: { spec: FaultSpec; left: number }[] = [];

  /** Queues a fault; throws a `FaultSpecError` naming the bad field. */
  add(spec: FaultSpec): void {
    validateFault(spec);
    this.faults.push({ spec, left: spec.times ?? 1 });
  }

  /** How many faults are queued (0: no request needs matching). */
  get size(): number {
    return this.faults.length;
  }

  /** Takes the first fault matching the request, or returns undefined. */
  take(request: Pick<Incoming, 'method' | 'headers'>, pathname: string): FaultSpec | undefined {
    const index = this.faults.findIndex(({ spec }) => matches(spec, request, pathname));
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

function matches(spec: FaultSpec, request: Pick<Incoming, 'method' | 'headers'>, pathname: string): boolean {
  if (spec.method && spec.method.toUpperCase() !== request.method.toUpperCase()) return false;
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    if (request.headers.get(name) !== value) return false;
  }
  if (spec.path === undefined) return true;
  return typeof spec.path === 'string' ? spec.path === pathname : spec.path.test(pathname);
}
