// The zod building blocks every schema shares: open enums, UUIDs, cents, contact formats, secure
// URLs, cross-field rules as checks, the error envelope, and the page envelope of list endpoints.
import * as z from 'zod';
import { UUID_MESSAGE, UUID_PATTERN } from '../../internal/uuid.js';
import { isSecureUrl, type Open } from '../common.js';
import type { Rule } from '../rules/rule.js';

/**
 * A schema for an open enum. It accepts any string at run time and documents the known values
 * (in the OpenAPI document they appear as an `anyOf` of the enum and a plain string).
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodType<Open<T[number]>> {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<Open<T[number]>>;
}

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

const RULES = new WeakMap<object, Rule<never>>();

/**
 * A cross-field rule as a zod check: every issue `rule` returns is added at its path. The schema
 * compiler (scripts/compile-schemas.ts) reads the rule back with {@link ruleOf}.
 */
export function ruleCheck<T>(rule: Rule<T>): z.core.$ZodCheck<T> {
  const check = z.superRefine((value: T, ctx) => {
    for (const issue of rule(value)) ctx.addIssue({ code: 'custom', ...issue });
  });
  RULES.set(check, rule as Rule<never>);
  return check;
}

/** The rule of a check made by {@link ruleCheck}. */
export function ruleOf(check: object): Rule<never> | undefined {
  return RULES.get(check);
}

/**
 * An `https://` URL (`http://` is accepted only for loopback hosts, which is how local tests and the
 * mock run).
 */
export const secureUrl = z
  .string()
  .refine(isSecureUrl, { error: 'must be an https:// URL (http:// only for 127.0.0.1, ::1 or localhost)' });

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
