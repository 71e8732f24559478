// The kit the compiled schemas (src/schemas/compiled/) are built from: schema kinds and checks that
// parse as zod's do, with zod's English messages, and no zod.
export { above, below, maxLength, minLength, pattern, refine, rule } from './checks.js';
export {
  type Accept,
  type AnyValue,
  array,
  boolean,
  custom,
  fast,
  fullCheckOf,
  int,
  nullable,
  number,
  object,
  oneOf,
  optional,
  REFUSE,
  record,
  Schema,
  string,
  union,
  unknown,
} from './nodes.js';
