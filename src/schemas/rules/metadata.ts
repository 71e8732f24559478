// The rules of an order's `metadata` as a pure function (no zod): `metadataIssues()` reports, with its
// path, anything JSON would change or drop, and the depth and size limits.
import type { RuleIssue } from './rule.js';

/**
 * The limits of an order's `metadata`: nesting depth (the metadata object itself is level 1) and
 * the size of its JSON text in UTF-8 bytes.
 *
 * @example
 * if (JSON.stringify(metadata).length > METADATA_LIMITS.maxBytes) trim(metadata);
 */
export const METADATA_LIMITS = { maxDepth: 10, maxBytes: 16_384 } as const;

/**
 * A JSON value as metadata carries it.
 *
 * @example
 * const value: JsonValue = { ticket: 42, tags: ['rush', null], paid: false };
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

const utf8 = new TextEncoder();
const JSON_KINDS = 'a string, a finite number, a boolean, null, an array or a plain object';

function kindOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return typeof value;
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
  const name = proto?.constructor?.name;
  return typeof name === 'string' && name ? `a ${name} instance` : 'an object with a foreign prototype';
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Why an object's own properties would not survive `JSON.stringify` unchanged, if they would not. */
function ownKeysProblem(value: object, isArray: boolean): string | undefined {
  if (Object.getOwnPropertySymbols(value).length > 0) return 'has symbol keys, which JSON cannot carry';
  const names = Object.getOwnPropertyNames(value);
  const descriptors = Object.getOwnPropertyDescriptors(value) as Record<string, PropertyDescriptor>;
  for (const name of names) {
    if (isArray && name === 'length') continue;
    const d = descriptors[name] as PropertyDescriptor;
    if (d.get || d.set) return `has a getter or setter (${JSON.stringify(name)}); only data can be sent`;
    if (!d.enumerable) return `has a non-enumerable property (${JSON.stringify(name)}) that JSON would drop`;
    if (isArray && !/^(0|[1-9]\d*)$/.test(name))
      return 'is an array with extra properties that JSON would drop';
  }
  if (isArray && names.length - 1 !== (value as unknown[]).length) {
    return 'is a sparse array (JSON would turn its holes into null)';
  }
  return undefined;
}

/**
 * Every way `value` is not metadata that JSON carries unchanged, each with its path. Walks at most
 * {@link METADATA_LIMITS}.maxDepth levels (no deeper recursion whatever the input), so a circular or
 * 20,000-deep value is an issue, never a `RangeError`.
 */
export function metadataIssues(value: unknown): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const ancestors = new Set<object>();
  const visit = (node: unknown, path: (string | number)[], depth: number): void => {
    if (issues.length >= 20) return;
    switch (typeof node) {
      case 'string':
      case 'boolean':
        return;
      case 'number':
        if (!Number.isFinite(node)) issues.push({ path, message: `must be a finite number (got ${node})` });
        else if (Object.is(node, -0)) issues.push({ path, message: 'must not be -0 (JSON would send 0)' });
        return;
      case 'object':
        break;
      default:
        issues.push({
          path,
          message: `must be a JSON value (${JSON_KINDS}), not ${node === undefined ? 'undefined' : `a ${typeof node}`}`,
        });
        return;
    }
    if (node === null) return;
    if (ancestors.has(node)) {
      issues.push({ path, message: 'is circular (refers to an object that contains it)' });
      return;
    }
    const isArray = Array.isArray(node) && Object.getPrototypeOf(node) === Array.prototype;
    if (!isArray && !isPlainObject(node)) {
      issues.push({ path, message: `must be a JSON value (${JSON_KINDS}), not ${kindOf(node)}` });
      return;
    }
    if (depth > METADATA_LIMITS.maxDepth) {
      issues.push({ path, message: `is nested deeper than ${METADATA_LIMITS.maxDepth} levels` });
      return;
    }
    const problem = ownKeysProblem(node, isArray);
    if (problem) {
      issues.push({ path, message: problem });
      return;
    }
    ancestors.add(node);
    if (isArray) {
      const items = node as unknown[];
      for (let i = 0; i < items.length; i++) visit(items[i], [...path, i], depth + 1);
    } else
      for (const key of Object.keys(node)) {
        if (key === '__proto__') {
          issues.push({ path: [...path, key], message: 'is a key the SDK refuses (`__proto__`)' });
          continue;
        }
        visit((node as Record<string, unknown>)[key], [...path, key], depth + 1);
      }
    ancestors.delete(node);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !isPlainObject(value)) {
    return [{ path: [], message: `must be a plain object of JSON values, not ${kindOf(value)}` }];
  }
  visit(value, [], 1);
  if (issues.length === 0) {
    const bytes = utf8.encode(JSON.stringify(value)).length;
    if (bytes > METADATA_LIMITS.maxBytes) {
      issues.push({
        path: [],
        message: `is ${bytes} bytes of JSON, over the ${METADATA_LIMITS.maxBytes}-byte limit`,
      });
    }
  }
  return issues;
}

/** Accepts any value: the type of `metadata` is left to {@link metadataIssues}. */
export function anyValue(_value: unknown): boolean {
  return true;
}
