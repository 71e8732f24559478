// How the mock maps a request's validation issues to the spec's error codes (spec 7): Level 3 codes
// first, then 400 `invalid_request` for an absent required value or a wrong shape, 422 for a rule.
import type { z } from 'zod';
import { issueLine } from '../../internal/issues.js';
import { MockApiError } from './respond.js';

/** Issue kinds that say the value has the wrong shape (a 400), whatever the value. */
const SHAPE_ISSUES = new Set(['invalid_type', 'unrecognized_keys', 'invalid_union']);

/** The value at an issue's path in the input: `undefined` when a key on the way is absent. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Whether an issue is about a required value that is not there (an absent key or `null`). Spec 7
 * calls that `invalid_request` (400), whatever schema construct reports it: a missing literal is an
 * `invalid_value` issue in zod, a missing enum too, a missing string an `invalid_type`. A `custom`
 * issue is a rule across fields ("give a status or a body"): it stays a 422.
 */
function isAbsent(issue: z.core.$ZodIssue, input: unknown): boolean {
  if (issue.code === 'unrecognized_keys' || issue.code === 'custom' || issue.path.length === 0) return false;
  const value = valueAt(input, issue.path);
  return value === undefined || value === null;
}

/**
 * Maps zod issues of a request (body or query) to the spec's codes: Level 3 codes first; then 400
 * `invalid_request` when a required value is absent or a value has the wrong shape; otherwise 422
 * `validation_error` (a present value that breaks a rule).
 *
 * @param input the value that was parsed, to tell an absent value from a present one
 */
export function issuesToError(issues: readonly z.core.$ZodIssue[], input: unknown): MockApiError {
  const lines = issues.map((i) =>
    isAbsent(i, input) ? `${i.path.map(String).join('.')}: is required` : issueLine(i, '(body)'),
  );
  const text = lines.join('; ');
  const level3 = issues.filter((i) => i.path[0] === 'level3');
  if (level3.length > 0) {
    const tax = level3.some(
      (i) =>
        i.code === 'custom' &&
        (i.params as { serviceCode?: string } | undefined)?.serviceCode === 'level3_tax_mismatch',
    );
    return new MockApiError(400, tax ? 'level3_tax_mismatch' : 'level3_validation_failed', text);
  }
  if (issues.some((i) => SHAPE_ISSUES.has(i.code) || isAbsent(i, input))) {
    return new MockApiError(400, 'invalid_request', text);
  }
  return new MockApiError(422, 'validation_error', text);
}
