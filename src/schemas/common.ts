// The zod building blocks every schema shares: open enums, UUIDs, cents, URLs and loopback checks,
// the scopes, the error codes and error envelope, and the page envelope of list endpoints.
import * as z from 'zod';
import { UUID_MESSAGE, UUID_PATTERN } from '../internal/uuid.js';

/**
 * An open string union: autocomplete offers the known values, and a value the SDK does not know yet
 * (the service added a status) still type-checks and parses.
 *
 * @example
 * type Tier = Open<'basic' | 'premium'>; // 'basic', 'premium' or any other string
 */
export type Open<T extends string> = T | (string & {});

/**
 * A schema for an open enum. It accepts any string at run time and documents the known values
 * (in the OpenAPI document they appear as an `anyOf` of the enum and a plain string).
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodType<Open<T[number]>> {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<Open<T[number]>>;
}

export { UUID_MESSAGE, UUID_PATTERN };

/**
 * A UUID as the service writes its identifiers (8-4-4-4-12 hexadecimal digits). Used for path
 * arguments too, so that nothing like `../` can ever reach a URL path.
 */
export const uuid = z.string().regex(UUID_PATTERN, { error: UUID_MESSAGE });

/** A timestamp: an ISO 8601 UTC string, kept as a string (as the wire has it). */
export const timestamp = z.string();

/**
 * Integer cents: a safe integer, never a float, a numeric string, NaN or Infinity.
 */
export const cents = z.int({
  error: 'must be an integer number of cents (no floats, strings, NaN or Infinity)',
});

/** Integer cents greater than zero. */
export const positiveCents = cents.positive({ error: 'must be greater than 0 cents' });

/** Integer cents of zero or more. */
export const nonNegativeCents = cents.nonnegative({ error: 'must be 0 cents or more' });

/** E.164: a plus sign, then up to 15 digits, the first not 0. */
export const e164Phone = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/, { error: 'must be an E.164 phone number such as +15551234567' });

export const email = z.email({ error: 'must be an email address' });

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a URL's host is a loopback address (127.0.0.0/8, ::1 or localhost). */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

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
 * An `https://` URL (`http://` is accepted only for loopback hosts, which is how local tests and the
 * mock run).
 */
export const secureUrl = z
  .string()
  .refine(isSecureUrl, { error: 'must be an https:// URL (http:// only for 127.0.0.1, ::1 or localhost)' });

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

/**
 * The error envelope every error response carries.
 *
 * @example
 * const body: ErrorBody = { error: 'order_not_found', message: 'No such order', request_id: 'req_123' };
 */
export const ErrorBody = z.looseObject({
  error: z.string(),
  message: z.string(),
  request_id: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The page envelope of list endpoints. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    total: z.int(),
    limit: z.int(),
    offset: z.int(),
  });
}

/** Page size rules: `limit` 1..200 (default 50 on the service), `offset` 0 or more. */
export const pageLimit = z
  .int({ error: 'must be an integer' })
  .min(1, { error: 'must be at least 1' })
  .max(200, { error: 'must be at most 200' });
export const pageOffset = z.int({ error: 'must be an integer' }).nonnegative({ error: 'must be 0 or more' });
