// `checkIds()`: the check that every path identifier of a resource call is a UUID, before the
// request is built.
import { RequestValidationError } from '../core/errors/api-errors.js';
import { UUID_MESSAGE, UUID_PATTERN } from '../schemas/common.js';

/**
 * Checks path identifiers before a request is built: each must be a UUID, so nothing like `../`
 * can reach the URL. Every bad id is reported at once, by name. A plain pattern test rather than a
 * schema parse: this runs on every call.
 */
export function checkIds(ids: Record<string, unknown>): void {
  let bad: string[] | undefined;
  for (const name in ids) {
    const value = ids[name];
    if (typeof value === 'string' && UUID_PATTERN.test(value)) continue;
    if (bad) bad.push(name);
    else bad = [name];
  }
  if (bad) {
    throw new RequestValidationError(
      'identifier',
      bad.map((name) => ({ path: [name], message: UUID_MESSAGE })),
    );
  }
}
