// The schema kinds of a compiled check, each parsing as the zod schema of the same kind parses
// (zod/v4/core/schemas.js): the same output, and the same issues in the same order.
import { type Check, refine, safeInteger, withChecks } from './checks.js';
import { aborted, type Issue, messages, prefix } from './issues.js';

type Run = (value: unknown, issues: Issue[]) => unknown;

/** A failed check, as the SDK reads it: zod's result shape, with the issues the SDK uses. */
export interface CheckFailure {
  success: false;
  error: {
    issues: { code: string; path: PropertyKey[]; message: string; params?: { serviceCode: string } }[];
  };
}

/** A compiled schema: parses like its zod schema (`safeParse`), and composes into others (`run`). */
export class Schema {
  /**
   * @param run Parses `value`, adding issues (paths relative to this schema) to `issues`.
   * @param skipsAbsent Whether an absent object key is left out rather than checked (zod's `optional`).
   */
  constructor(
    readonly run: Run,
    readonly skipsAbsent = false,
  ) {}

  /** zod's `safeParse`: the parsed value, or the issues. */
  safeParse(value: unknown): { success: true; data: unknown } | CheckFailure {
    const issues: Issue[] = [];
    const data = this.run(value, issues);
    if (issues.length === 0) return { success: true, data };
    return {
      success: false,
      error: {
        issues: issues.map(({ code, path, message, params }) =>
          params ? { code, path, message, params } : { code, path, message },
        ),
      },
    };
  }

  /**
   * zod's `parse` (set on the prototype below): the parsed value, or a thrown {@link CheckError}
   * holding the issues (zod throws its `ZodError`, which has the same `issues`). Typed `unknown` so
   * that where a check is typed as its zod schema as well (`typeof Z.Order & Schema`), `parse` reads
   * as zod's.
   */
  declare readonly parse: unknown;
}

Object.defineProperty(Schema.prototype, 'parse', {
  value(this: Schema, value: unknown): unknown {
    const result = this.safeParse(value);
    if (!result.success) throw new CheckError(result.error.issues);
    return result.data;
  },
});

/** What {@link Schema.parse} throws: the issues, one per line in the message, as zod's error holds them. */
export class CheckError extends Error {
  constructor(readonly issues: CheckFailure['error']['issues']) {
    super(issues.map((i) => `${i.path.map(String).join('.') || '(value)'}: ${i.message}`).join('\n'));
    this.name = 'CheckError';
  }
}

const typeIssue = (expected: string, input: unknown, message: string | undefined): Issue => ({
  code: 'invalid_type',
  path: [],
  message: message ?? messages.type(expected, input),
});

// One function per kind (not one taking a test), so that each type test is inlined where it runs.
export const string = (message?: string, checks: Check[] = []) =>
  new Schema(
    withChecks((value, issues) => {
      if (typeof value !== 'string') issues.push(typeIssue('string', value, message));
      return value;
    }, checks),
  );
const isNumber = (v: unknown) => typeof v === 'number' && !Number.isNaN(v) && Number.isFinite(v);
export const number = (message?: string, checks: Check[] = []) =>
  new Schema(
    withChecks((value, issues) => {
      if (!isNumber(value)) issues.push(typeIssue('number', value, message));
      return value;
    }, checks),
  );
/** `z.int()`: a number, then zod's safe-integer format check (the schema's message covers both). */
export const int = (message?: string, checks: Check[] = []) =>
  number(message, [safeInteger(message), ...checks]);
export const boolean = (message?: string) =>
  new Schema((value, issues) => {
    if (typeof value !== 'boolean') issues.push(typeIssue('boolean', value, message));
    return value;
  });
export const unknown = () => new Schema((value) => value);

/** `z.enum()` and `z.literal()`: one of `values`. */
export function oneOf(values: readonly unknown[], message?: string): Schema {
  const set = new Set(values);
  return new Schema((value, issues) => {
    if (!set.has(value))
      issues.push({ code: 'invalid_value', path: [], message: message ?? messages.value(values) });
    return value;
  });
}

/** `z.custom(test)`: any value `test` accepts (an abort otherwise), then the checks. */
export const custom = (test: (value: never) => unknown, message?: string, checks: Check[] = []) =>
  new Schema(withChecks((value) => value, [refine(test, message, true), ...checks]));

/** `.optional()`: `undefined` passes, and an absent key is left out. */
export const optional = (inner: Schema) =>
  new Schema((value, issues) => (value === undefined ? undefined : inner.run(value, issues)), true);

/** `.nullable()`: `null` passes. */
export const nullable = (inner: Schema) =>
  new Schema((value, issues) => (value === null ? null : inner.run(value, issues)), inner.skipsAbsent);

/** `z.union()`: the first option that passes; else the one that failed without an abort, if alone. */
export function union(options: readonly Schema[], message?: string): Schema {
  if (options.length === 1) return options[0]!;
  return new Schema(
    (value, issues) => {
      const start = issues.length;
      const failed: { out: unknown; issues: Issue[] }[] = [];
      for (const option of options) {
        const out = option.run(value, issues);
        if (issues.length === start) return out;
        failed.push({ out, issues: issues.splice(start) });
      }
      const passing = failed.filter((f) => !aborted(f.issues, 0));
      if (passing.length === 1) {
        issues.push(...passing[0]!.issues);
        return passing[0]!.out;
      }
      issues.push({ code: 'invalid_union', path: [], message: message ?? messages.other });
      return value;
    },
    options.some((o) => o.skipsAbsent),
  );
}

/** `z.array(element)`: a new array of the parsed elements. */
export function array(element: Schema, message?: string, checks: Check[] = []): Schema {
  return new Schema(
    withChecks((input, issues) => {
      if (!Array.isArray(input)) {
        issues.push(typeIssue('array', input, message));
        return input;
      }
      const out = new Array(input.length);
      for (let i = 0; i < input.length; i++) {
        const before = issues.length;
        out[i] = element.run(input[i], issues);
        if (issues.length !== before) prefix(issues, before, i);
      }
      return out;
    }, checks),
  );
}

/** How an object treats keys it does not declare: refuse them, keep them, or drop them. */
export type Extra = 'strict' | 'loose' | 'strip';

/** `z.strictObject()`, `z.looseObject()`, `z.object()`: a new object, declared keys first. */
export function object(shape: Record<string, Schema>, extra: Extra, message?: string, checks: Check[] = []) {
  const keys = Object.keys(shape).filter((k) => k !== '__proto__');
  const schemas = keys.map((k) => shape[k]!);
  const declared = new Set(keys);
  return new Schema(
    withChecks((input, issues) => {
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        issues.push(typeIssue('object', input, message));
        return input;
      }
      const fields = input as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const field = schemas[i]!;
        // Read once, as zod does; `in` only for an undefined value (absent, or present as undefined).
        const raw = fields[key];
        const present = raw !== undefined || key in fields;
        if (!present && field.skipsAbsent) continue;
        const before = issues.length;
        const value = field.run(raw, issues);
        if (issues.length !== before) prefix(issues, before, key);
        else if (!present) issues.push({ code: 'invalid_type', path: [key], message: NONOPTIONAL });
        if (present) out[key] = value;
      }
      if (extra === 'strict') {
        let unknownKeys: string[] | undefined;
        for (const key in fields) {
          if (declared.has(key)) continue;
          if (unknownKeys === undefined) unknownKeys = [];
          unknownKeys.push(key);
        }
        if (unknownKeys) {
          issues.push({
            code: 'unrecognized_keys',
            path: [],
            message: message ?? messages.keys(unknownKeys),
            continue: true,
          });
        }
      } else if (extra === 'loose') {
        for (const key in fields) if (!declared.has(key) && key !== '__proto__') out[key] = fields[key];
      }
      return out;
    }, checks),
  );
}
const NONOPTIONAL = messages.type('nonoptional', undefined);

/** zod's `util.isPlainObject`, the test of `z.record()`. */
function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  if (typeof proto !== 'object' || proto === null || Array.isArray(proto)) return false;
  return Object.hasOwn(proto, 'isPrototypeOf');
}

/** `z.record(z.string(), value)`: every own enumerable string key, and an issue for a symbol key. */
export function record(value: Schema, message?: string): Schema {
  return new Schema((input, issues) => {
    if (!isPlainObject(input)) {
      issues.push(typeIssue('record', input, message));
      return input;
    }
    const out: Record<PropertyKey, unknown> = {};
    for (const key of Reflect.ownKeys(input)) {
      if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
      if (typeof key === 'symbol') {
        issues.push({ code: 'invalid_key', path: [key], message: message ?? 'Invalid key in record' });
        continue;
      }
      const before = issues.length;
      out[key] = value.run(input[key], issues);
      if (issues.length !== before) prefix(issues, before, key);
    }
    return out;
  });
}

/** What a fast path returns when it is not sure a value passes: the full check then runs. */
export const REFUSE: unique symbol = Symbol('refuse');

/** A value a generated fast path reads by key and tests in place (it may be anything). */
// biome-ignore lint/suspicious/noExplicitAny: a fast path tests every value it reads before using it
export type AnyValue = any;

/** A fast path: the parsed value when it is sure the value passes, else {@link REFUSE}. */
export type Accept = (input: AnyValue) => unknown;

const fullChecks = new WeakMap<Schema, Schema>();

/**
 * `schema` with a fast path tried first (scripts/compile-fast.ts generates it): the parsed value
 * when the fast path is sure, else the full check, which raises the issues. No fast path (the build
 * for Workers and browsers has none): `schema` itself.
 */
export function fast(schema: Schema, accept: Accept | undefined): Schema {
  if (!accept) return schema;
  const full = schema.run;
  const out = new Schema((value, issues) => {
    const parsed = accept(value);
    return parsed === REFUSE ? full(value, issues) : parsed;
  }, schema.skipsAbsent);
  fullChecks.set(out, schema);
  return out;
}

/** The full check behind a fast path (`schema` when it has none): what the build for Workers runs. */
export const fullCheckOf = (schema: Schema): Schema => fullChecks.get(schema) ?? schema;
