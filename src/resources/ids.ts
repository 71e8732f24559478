import { z } from 'zod';
import { validate } from '../core/validate.js';
import { uuid } from '../schemas/common.js';

const idSchemas = new Map<string, z.ZodType>();

/**
 * Checks path identifiers before a request is built: each must be a UUID, so nothing like `../`
 * can reach the URL. Every bad id is reported at once, by name.
 */
export function checkIds(ids: Record<string, string>): void {
  const key = Object.keys(ids).join(',');
  let schema = idSchemas.get(key);
  if (!schema) {
    schema = z.object(Object.fromEntries(Object.keys(ids).map((name) => [name, uuid])));
    idSchemas.set(key, schema);
  }
  validate(schema, ids, 'identifier');
}
