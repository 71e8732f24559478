import type { z } from 'zod';
import { RequestValidationError, type ValidationIssue } from './errors.js';

/**
 * Checks `input` against a request schema and returns the parsed value, or throws a
 * {@link RequestValidationError} listing every issue with its path. The one place request
 * validation happens: resources call it before anything is sent.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((issue) => {
    const serviceCode = (issue as { params?: { serviceCode?: string } }).params?.serviceCode;
    return {
      path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: issue.message,
      ...(serviceCode ? { code: serviceCode } : {}),
    };
  });
  throw new RequestValidationError(what, issues);
}
