// What the SDK does with a value checked by a schema (test/resources/schema-outcomes.test.ts and
// test/schemas/compiled.test.ts compare these): sends it, refuses it, parses it or calls it invalid.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { parseSuccess } from '../../src/core/call/response.js';
import { validate } from '../../src/core/call/validate.js';
import { RequestValidationError } from '../../src/core/errors/api-errors.js';
import { issueLine } from '../../src/internal/issues.js';
import type { SchemaSubject } from './schema-cases.js';

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
/** JSON with `undefined` kept visible, so that a key sent as undefined differs from an absent key. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) => (v === undefined ? '(undefined)' : v)) ?? '(undefined)';

/**
 * What the SDK does with `input` checked by `schema`: for a request body, the issues of the
 * RequestValidationError (path, message, code) or a hash of the JSON sent (key order included); for a
 * response, the issues of the InvalidResponseError or a hash of the parsed value.
 */
export function outcome(subject: SchemaSubject, schema: z.ZodType, input: unknown): string {
  if (subject.kind === 'request') {
    try {
      return `sent ${hash(canonical(validate(schema, input, subject.name)))}`;
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      const lines = error.issues.map((i) => `${issueLine(i, '(root)')}${i.code ? ` [${i.code}]` : ''}`);
      return `refused: ${lines.join(' | ')} (message ${hash(error.message).slice(0, 8)})`;
    }
  }
  let bodyText: string | undefined;
  try {
    bodyText = JSON.stringify(input);
  } catch {
    return 'not JSON';
  }
  if (bodyText === undefined) return 'not JSON';
  const res = { status: 200, headers: { 'content-type': 'application/json' }, bodyText };
  const parsed = parseSuccess(res, schema, { method: 'GET', path: '/x' });
  if (parsed.ok) return `parsed ${hash(canonical(parsed.value))}`;
  const { message } = parsed.error;
  const prefix = 'GET /x answered 200 but with a body that does not match the documented shape (';
  return `invalid: ${message.startsWith(prefix) ? message.slice(prefix.length, -2) : message}`;
}
