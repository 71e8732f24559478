// Request validation: `validate()` checks a resource method's input against its schema before
// anything is sent (the check compiled from the zod schema, src/schemas/compiled/, or any zod schema),
// and throws a RequestValidationError listing every issue.
import type { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from '../errors/api-errors.js';

/**
 * Checks `input` against a request schema (anything with zod's `safeParse`: the SDK's compiled checks,
 * or a zod schema) and returns the parsed value, or throws a
 * {@link RequestValidationError} listing every issue with its path. The one place request
 * validation happens: resources call it before anything is sent.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const code =
      (issue as { params?: { serviceCode?: string } }).params?.serviceCode ??
      (path[0] === 'level3' ? 'level3_validation_failed' : undefined);
    const message =
      issue.code === 'unrecognized_keys'
        ? `${issue.message} (fields use the service's snake_case names, such as total_cents)`
        : // A missing field fails its type or, for a literal (`method: 'card'`), its value: either way
          // it is `required` (docs/errors.md), not "must be 'card'".
          (issue.code === 'invalid_type' || issue.code === 'invalid_value') && isMissing(input, path)
          ? 'required'
          : issue.message;
    return { path, message, ...(code ? { code } : {}) };
  });
  throw new RequestValidationError(what, issues);
}

/** Whether the value at `path` is absent: a custom type message ("must be an integer") would mislead. */
function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined;
}
