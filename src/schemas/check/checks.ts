// The checks a compiled schema runs after its type check, each raising the issue zod's check of the
// same name raises: patterns, lengths, bounds, refinements and cross-field rules.
import type { Rule } from '../rules/rule.js';
import { aborted, explicitlyAborted, type Issue, messages } from './issues.js';

/** A check of a value that passed (or, for `sized`, may have failed) its schema's type check. */
export interface Check {
  run(value: unknown, issues: Issue[]): void;
  /** zod's length checks: run on any non-nullish value with a `length`, even after an issue. */
  sized?: boolean;
}

/**
 * A schema's parse followed by its checks, as zod runs them: a check is skipped once an issue stops
 * the checks (its `continue` is not true), except a length check, which only an explicit stop skips.
 */
export function withChecks(
  parse: (value: unknown, issues: Issue[]) => unknown,
  checks: readonly Check[],
): (value: unknown, issues: Issue[]) => unknown {
  if (checks.length === 0) return parse;
  return (input, issues) => {
    const start = issues.length;
    const value = parse(input, issues);
    let stop = issues.length !== start && aborted(issues, start);
    for (const check of checks) {
      if (check.sized) {
        if (explicitlyAborted(issues, start)) continue;
        if (value == null || (value as { length?: unknown }).length === undefined) continue;
      } else if (stop) continue;
      const before = issues.length;
      check.run(value, issues);
      if (!stop && issues.length !== before) stop = aborted(issues, before);
    }
    return value;
  };
}

const issue = (code: string, message: string, extra?: Partial<Issue>): Issue => ({
  code,
  path: [],
  message,
  continue: true,
  ...extra,
});

/** A string matching `pattern` (`format` 'email' for zod's `z.email()`). */
export function pattern(re: RegExp, message?: string, format: 'regex' | 'email' = 'regex'): Check {
  return {
    run(value, issues) {
      re.lastIndex = 0;
      if (!re.test(value as string))
        issues.push(issue('invalid_format', message ?? messages.format(format, re)));
    },
  };
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
/** The length of a string in code points, as zod counts a string's length. */
function codePoints(text: string): number {
  let count = text.length;
  if (!HIGH_SURROGATE.test(text)) return count;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}
const originOf = (value: unknown) =>
  Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'unknown';

/** At least `minimum` items, or characters (code points) in a string. */
export function minLength(minimum: number, message?: string): Check {
  return {
    sized: true,
    run(value, issues) {
      const units = (value as { length: number }).length;
      const length =
        typeof value === 'string' && units >= minimum && units < minimum * 2 ? codePoints(value) : units;
      if (length >= minimum) return;
      issues.push(issue('too_small', message ?? messages.small(originOf(value), minimum, true)));
    },
  };
}

/** At most `maximum` items, or characters (code points) in a string. */
export function maxLength(maximum: number, message?: string): Check {
  return {
    sized: true,
    run(value, issues) {
      const units = (value as { length: number }).length;
      const length = typeof value === 'string' && units > maximum ? codePoints(value) : units;
      if (length <= maximum) return;
      issues.push(issue('too_big', message ?? messages.big(originOf(value), maximum, true)));
    },
  };
}

/** A number above `minimum` (or at it, when `inclusive`). */
export function above(minimum: number, inclusive: boolean, message?: string): Check {
  return {
    run(value, issues) {
      if (inclusive ? (value as number) >= minimum : (value as number) > minimum) return;
      issues.push(issue('too_small', message ?? messages.small('number', minimum, inclusive)));
    },
  };
}

/** A number below `maximum` (or at it, when `inclusive`). */
export function below(maximum: number, inclusive: boolean, message?: string): Check {
  return {
    run(value, issues) {
      if (inclusive ? (value as number) <= maximum : (value as number) < maximum) return;
      issues.push(issue('too_big', message ?? messages.big('number', maximum, inclusive)));
    },
  };
}

/** zod's `safeint` format: an integer, then within the safe range. */
export function safeInteger(message?: string): Check {
  return {
    run(value, issues) {
      const n = value as number;
      if (!Number.isInteger(n)) {
        issues.push(issue('invalid_type', message ?? messages.type('int', n), { continue: false }));
      } else if (!Number.isSafeInteger(n)) {
        issues.push(
          n > 0
            ? issue('too_big', message ?? messages.big('int', Number.MAX_SAFE_INTEGER, true))
            : issue('too_small', message ?? messages.small('int', Number.MIN_SAFE_INTEGER, true)),
        );
      }
    },
  };
}

/** zod's `.refine(test)`: one issue when `test` is false (`stop` for `z.custom(test)`, which aborts). */
export function refine(test: (value: never) => unknown, message?: string, stop = false): Check {
  return {
    run(value, issues) {
      if (!test(value as never)) issues.push(issue('custom', message ?? messages.other, { continue: !stop }));
    },
  };
}

/** A cross-field rule (zod's `.superRefine()` made by `ruleCheck`): every issue it returns. */
export function rule(check: Rule<never>): Check {
  return {
    run(value, issues) {
      for (const found of check(value as never)) {
        issues.push({
          code: 'custom',
          path: [...found.path],
          message: found.message,
          ...(found.params ? { params: found.params } : {}),
          continue: true,
        });
      }
    },
  };
}
