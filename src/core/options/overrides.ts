/** What a derived client (`client.withOptions()`) may change, and the check of its overrides. */

import { lowerCaseHeaders } from '../call/headers.js';
import { ConfigurationError } from '../errors/api-errors.js';
import { resolveRateLimit } from '../limits/rate-limit.js';
import { isLogLevel } from '../observe/logger.js';
import { checkMeter, count, duration, middlewareList, reconcileMode } from './checks.js';
import type { PaymentsClientOptions, ResolvedOptions } from './options.js';

/**
 * What `client.withOptions()` may change: everything that does not need other credentials, another
 * service or another connection pool. A `rateLimit` gives the derived client a limiter of its own
 * (its own bucket, or with a `store` the store's bucket of the same machine client); without one it
 * waits in its parent's.
 *
 * @example
 * const overrides: ClientOverrides = { maxRetries: 0, timeoutMs: 2_000, defaultHeaders: { 'x-team': 'risk' } };
 * const batch = client.withOptions({ rateLimit: { perSecond: 2, burst: 2 } }); // leaves room for the rest
 * const strict = client.withOptions(overrides);
 */
export type ClientOverrides = Pick<
  PaymentsClientOptions,
  | 'maxRetries'
  | 'timeoutMs'
  | 'deadlineMs'
  | 'defaultHeaders'
  | 'logger'
  | 'logLevel'
  | 'middleware'
  | 'tracer'
  | 'meter'
  | 'rateLimit'
  | 'reconcile'
  | 'settleMs'
>;

const OVERRIDABLE = new Set<string>([
  'maxRetries',
  'timeoutMs',
  'deadlineMs',
  'defaultHeaders',
  'logger',
  'logLevel',
  'middleware',
  'tracer',
  'meter',
  'rateLimit',
  'reconcile',
  'settleMs',
]);

/**
 * The options of a derived client: `base` with `overrides` applied and checked. Default headers are
 * added to the parent's (a header of the same name replaces the parent's).
 */
export function resolveOverrides(base: ResolvedOptions, overrides: ClientOverrides): ResolvedOptions {
  for (const name of Object.keys(overrides)) {
    if (!OVERRIDABLE.has(name)) {
      throw new ConfigurationError(
        name,
        `cannot be changed by withOptions() (a derived client shares its parent's credentials, service and connections); create a new PaymentsClient instead.`,
      );
    }
  }
  const o = overrides;
  if (o.logLevel !== undefined && !isLogLevel(o.logLevel)) {
    throw new ConfigurationError('logLevel', "must be one of 'debug', 'info', 'warn', 'error', 'off'.");
  }
  return {
    ...base,
    maxRetries: count('maxRetries', o.maxRetries, base.maxRetries),
    timeoutMs: duration('timeoutMs', o.timeoutMs, base.timeoutMs),
    deadlineMs: o.deadlineMs === undefined ? base.deadlineMs : duration('deadlineMs', o.deadlineMs, 0),
    defaultHeaders: { ...base.defaultHeaders, ...lowerCaseHeaders(o.defaultHeaders) },
    logger: 'logger' in o ? o.logger : base.logger,
    logLevel: o.logLevel ?? base.logLevel,
    middleware: o.middleware === undefined ? base.middleware : middlewareList(o.middleware),
    tracer: 'tracer' in o ? o.tracer : base.tracer,
    meter: 'meter' in o ? checkMeter(o.meter) : base.meter,
    reconcile: reconcileMode(o.reconcile, base.reconcile),
    settleMs: duration('settleMs', o.settleMs, base.settleMs),
    // A new limit is a limiter of the derived client's own (client.ts builds it); undefined keeps the parent's.
    rateLimit:
      o.rateLimit === undefined
        ? base.rateLimit
        : { limit: resolveRateLimit(o.rateLimit), store: o.rateLimit.store },
  };
}
