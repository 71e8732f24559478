// The values every schema shares, without zod (so that the main entry can import them): the open
// union type, the scopes, the error codes, and the secure-URL check (over internal/loopback.ts).
import { isLoopbackHost } from '../internal/loopback.js';
import { UUID_MESSAGE, UUID_PATTERN } from '../internal/uuid.js';

/**
 * An open string union: autocomplete offers the known values, and a value the SDK does not know yet
 * (the service added a status) still type-checks and parses.
 *
 * @example
 * type Tier = Open<'basic' | 'premium'>; // 'basic', 'premium' or any other string
 */
export type Open<T extends string> = T | (string & {});

export { UUID_MESSAGE, UUID_PATTERN };

/** Whether a URL is acceptable as a secure endpoint: `https:`, or `http:` on a loopback host. */
export function isSecureUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/**
 * Scopes the service knows; others pass through.
 *
 * @example
 * const client = new PaymentsClient({ scopes: SCOPES }); // ask for every known scope
 */
export const SCOPES = [
  'svc/payments:create',
  'svc/payments:read',
  'svc/payments:refund',
  'svc/locations:read',
  'svc/pos:launch',
  'svc/webhooks:subscribe',
] as const;
/**
 * An OAuth scope: a known one (autocompleted) or any other name.
 *
 * @example
 * const scopes: Scope[] = ['svc/payments:create', 'svc/payments:refund'];
 */
export type Scope = Open<(typeof SCOPES)[number]>;

/**
 * The scopes a client asks for when none are given: the minimum for charging.
 *
 * @example
 * const client = new PaymentsClient({ scopes: [...DEFAULT_SCOPES, 'svc/payments:refund'] });
 */
export const DEFAULT_SCOPES: readonly Scope[] = [
  'svc/payments:create',
  'svc/payments:read',
  'svc/locations:read',
];

/**
 * Every error code of the service's error table (section 7), plus `service_unavailable` for 503 and
 * OAuth's `invalid_client` (the token endpoint refused the client id or secret).
 *
 * @example
 * const known = err instanceof APIError && (ERROR_CODES as readonly string[]).includes(err.code ?? '');
 */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_scope',
  'level3_tax_mismatch',
  'level3_validation_failed',
  'amount_exceeds_order_total',
  'invalid_client',
  'missing_token',
  'invalid_token',
  'token_expired',
  'client_revoked',
  'insufficient_scope',
  'location_out_of_scope',
  'permission_denied',
  'order_not_found',
  'payment_not_found',
  'location_not_found',
  'spec_not_available',
  'order_already_paid',
  'order_not_open',
  'payment_already_settled',
  'refund_window_expired',
  'idempotency_conflict',
  'validation_error',
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
] as const;
/**
 * The service's error code of an `APIError` (section 7), open for codes added later.
 *
 * @example
 * if (err instanceof APIError && err.code === 'order_already_paid') return;
 */
export type ErrorCode = Open<(typeof ERROR_CODES)[number]>;
