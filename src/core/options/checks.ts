// The checks of single client options (ConfigurationError naming the option): counts, durations,
// headers, scopes, URLs, the reconcile mode, middleware, the intent store and the meter.

import { isSecureUrl } from '../../schemas/common.js';
import type { Middleware } from '../call/middleware.js';
import { ConfigurationError } from '../errors/api-errors.js';
import type { PaymentsMeter } from '../observe/metrics.js';
import type { IntentStore } from '../stores/intent-store.js';
import type { ReconcileMode } from '../types.js';

/** Checks a `reconcile` option (of the client or of one call). */
export function reconcileMode(value: unknown, fallback: ReconcileMode): ReconcileMode {
  if (value === undefined) return fallback;
  if (value === 'auto' || value === 'off') return value;
  throw new ConfigurationError('reconcile', "must be 'auto' or 'off'.");
}

/** Checks a `middleware` option: an array of functions. */
export function middlewareList(value: unknown): readonly Middleware[] {
  if (!Array.isArray(value) || value.some((m) => typeof m !== 'function')) {
    throw new ConfigurationError(
      'middleware',
      'must be an array of functions (call, next) => Promise<result>.',
    );
  }
  return [...value] as Middleware[];
}

export function intentStoreOption(store: unknown): IntentStore | undefined {
  if (store === undefined) return undefined;
  const methods = ['begin', 'put', 'get', 'forOrder', 'unfinished', 'noteRefund', 'refundsOf'];
  if (
    typeof store !== 'object' ||
    store === null ||
    methods.some((m) => typeof (store as Record<string, unknown>)[m] !== 'function')
  ) {
    throw new ConfigurationError('intentStore', `must implement IntentStore (${methods.join(', ')}).`);
  }
  return store as IntentStore;
}

/** Scopes with the `svc/` prefix, as the token endpoint expects them. */
export function normalizeScopes(scopes: readonly string[]): string[] {
  if (!Array.isArray(scopes) || scopes.length === 0) {
    throw new ConfigurationError('scopes', 'must be a non-empty array of scope names.');
  }
  return scopes.map((scope) => {
    if (typeof scope !== 'string' || !/^[\w:./-]+$/.test(scope)) {
      throw new ConfigurationError(
        'scopes',
        `${JSON.stringify(scope)} is not a scope name (e.g. 'payments:read').`,
      );
    }
    return scope.startsWith('svc/') ? scope : `svc/${scope}`;
  });
}

export function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

export function missing(option: string, envVar: string): ConfigurationError {
  return new ConfigurationError(
    option,
    `is required (pass it, or set ${envVar}), unless \`accessToken\` is given.`,
  );
}

export function checkUrl(option: string, value: string | undefined, envVar: string): string {
  if (!nonEmpty(value)) throw new ConfigurationError(option, `is required (pass it, or set ${envVar}).`);
  if (!isSecureUrl(value)) {
    throw new ConfigurationError(
      option,
      'must be an https:// URL (http:// is accepted only for 127.0.0.0/8, ::1 and localhost).',
    );
  }
  return value.replace(/\/+$/, '');
}

/** An integer option of 0 or more, or `fallback` when not given. */
export function count(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ConfigurationError(option, 'must be an integer of 0 or more.');
  }
  return value;
}

/** A positive number of milliseconds, or `fallback` when not given. */
export function duration(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(option, 'must be a positive number of milliseconds.');
  }
  return value;
}

/** The `meter` option, refused unless it is an OpenTelemetry Meter. */
export function checkMeter(meter: PaymentsMeter | undefined): PaymentsMeter | undefined {
  const m = meter as Partial<PaymentsMeter> | undefined;
  if (m !== undefined && (typeof m?.createHistogram !== 'function' || typeof m.createCounter !== 'function'))
    throw new ConfigurationError('meter', "must be an OpenTelemetry Meter (metrics.getMeter('my-service')).");
  return meter;
}
