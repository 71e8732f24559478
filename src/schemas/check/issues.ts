// The issues a compiled check raises and their English messages, worded as zod's English locale
// words them (zod/v4/locales/en.js), for the issue kinds the SDK's schemas can raise.

/** One issue, as a zod issue carries it; `continue: true` lets the checks after it run. */
export interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  params?: { serviceCode: string };
  continue?: boolean;
}

/** The type zod names for a value in "received ..." (zod's `util.parsedType` and the locale's names). */
export function typeName(input: unknown): string {
  switch (typeof input) {
    case 'number':
      return Number.isNaN(input) ? 'NaN' : Number.isFinite(input) ? 'number' : String(input);
    case 'object': {
      if (input === null) return 'null';
      if (Array.isArray(input)) return 'array';
      const ctor =
        Object.getPrototypeOf(input) !== Object.prototype && 'constructor' in input && input.constructor;
      // As zod's locale looks names up in a plain object (`nan` is its one entry).
      if (ctor) return NAMES[(ctor as { name: string }).name] ?? (ctor as { name: string }).name;
      return 'object';
    }
    default:
      return typeof input;
  }
}
const NAMES: Record<string, string> = { nan: 'NaN' };

const UNITS: Record<string, string> = { string: 'characters', array: 'items' };

/** `"a"` for a string, `1` for a number: how zod quotes a value in a message. */
export const quote = (value: unknown) =>
  typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? `"${value}"` : `${value}`;

/** The English message of an issue that neither its schema nor its check names. */
export const messages = {
  type: (expected: string, input: unknown) =>
    `Invalid input: expected ${expected}, received ${typeName(input)}`,
  value: (values: readonly unknown[]) =>
    values.length === 1
      ? `Invalid input: expected ${quote(values[0])}`
      : `Invalid option: expected one of ${values.map(quote).join('|')}`,
  small: (origin: string, minimum: number, inclusive: boolean) =>
    UNITS[origin]
      ? `Too small: expected ${origin} to have ${inclusive ? '>=' : '>'}${minimum} ${UNITS[origin]}`
      : `Too small: expected ${origin} to be ${inclusive ? '>=' : '>'}${minimum}`,
  big: (origin: string, maximum: number, inclusive: boolean) =>
    UNITS[origin]
      ? `Too big: expected ${origin} to have ${inclusive ? '<=' : '<'}${maximum} ${UNITS[origin]}`
      : `Too big: expected ${origin} to be ${inclusive ? '<=' : '<'}${maximum}`,
  format: (format: 'regex' | 'email', pattern: RegExp) =>
    format === 'regex' ? `Invalid string: must match pattern ${pattern}` : 'Invalid email address',
  keys: (keys: readonly string[]) =>
    `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.map(quote).join(', ')}`,
  other: 'Invalid input',
};

/** Whether an issue from index `from` on stops the checks after it (zod's `util.aborted`). */
export function aborted(issues: readonly Issue[], from: number): boolean {
  for (let i = from; i < issues.length; i++) if (issues[i]!.continue !== true) return true;
  return false;
}

/** Whether an issue from index `from` on stops even the length checks (zod's `explicitlyAborted`). */
export function explicitlyAborted(issues: readonly Issue[], from: number): boolean {
  for (let i = from; i < issues.length; i++) if (issues[i]!.continue === false) return true;
  return false;
}

/** Puts `key` in front of the path of every issue from index `from` on. */
export function prefix(issues: readonly Issue[], from: number, key: PropertyKey): void {
  for (let i = from; i < issues.length; i++) issues[i]!.path.unshift(key);
}
