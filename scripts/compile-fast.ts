// The fast path of a hot schema (used by scripts/compile-module.ts): straight-line code that reads
// each declared key by name and tests each value in place, and either returns the parsed value (the
// same value, key order included, that the full check returns) or REFUSE, whenever it is not sure:
// the full check then runs and raises the issues. Only acceptance must be exact; refusing is safe.
import type * as z from 'zod';
import { ruleOf } from '../src/schemas/zod/fields.js';

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string; checks?: { _zod: { def: Def } }[] };

/** The source of `(input) => parsed | REFUSE` for `schema`; `ref` names a function or pattern to import. */
export function fastAccept(
  schema: Schema,
  ref: (value: unknown, where: string) => string,
  where: string,
): string {
  const body: string[] = [];
  let n = 0;
  const fresh = (prefix: string) => `${prefix}${n++}`;
  const refuse = (condition: string) => body.push(`if (${condition}) return REFUSE;`);
  const prop = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

  /** Statements that test `value` against the checks of `s` (a string, number or object). */
  const checks = (s: Schema, value: string, at: string) => {
    for (const check of (s._zod.def as Def).checks ?? []) {
      const d = check._zod.def;
      switch (d.check) {
        case 'string_format':
          refuse(`!${pattern(d.pattern as RegExp, at)}.test(${value})`);
          break;
        case 'min_length': {
          const min = d.minimum as number;
          refuse(`${value}.length < ${min}`);
          // A string counts code points: two units may be one. Unsure below twice the minimum: refuse.
          if (min > 1)
            refuse(
              `typeof ${value} === 'string' && ${value}.length < ${2 * min} && /[\\uD800-\\uDBFF]/.test(${value})`,
            );
          break;
        }
        case 'max_length':
          refuse(`${value}.length > ${d.maximum as number}`);
          break;
        case 'greater_than':
          refuse(`${value} ${d.inclusive ? '<' : '<='} ${d.value as number}`);
          break;
        case 'less_than':
          refuse(`${value} ${d.inclusive ? '>' : '>='} ${d.value as number}`);
          break;
        case 'custom': {
          if (typeof d.fn === 'function') refuse(`!${ref(d.fn, at)}(${value})`);
          else refuse(`${ref(ruleOf(check), at)}(${value}).length !== 0`);
          break;
        }
        default:
          throw new Error(`${at}: no fast path for check ${String(d.check)}`);
      }
    }
  };
  const pattern = (re: RegExp, at: string) => {
    if (re.global || re.sticky) throw new Error(`${at}: no fast path for a global or sticky pattern`);
    return ref(re, at);
  };

  /** Statements that test `value` against `s`; returns the expression of the parsed value. */
  const parse = (s: Schema, value: string, at: string): string => {
    const d = s._zod.def as Def;
    switch (d.type) {
      case 'string':
        refuse(`typeof ${value} !== 'string'`);
        if (d.format === 'email') refuse(`!${pattern(d.pattern as RegExp, at)}.test(${value})`);
        else if (d.format) throw new Error(`${at}: no fast path for format ${String(d.format)}`);
        checks(s, value, at);
        return value;
      case 'number':
        refuse(
          d.format === 'safeint'
            ? `!Number.isSafeInteger(${value})`
            : `typeof ${value} !== 'number' || !Number.isFinite(${value})`,
        );
        checks(s, value, at);
        return value;
      case 'boolean':
        refuse(`typeof ${value} !== 'boolean'`);
        return value;
      case 'custom':
        refuse(`!${ref(d.fn, at)}(${value})`);
        checks(s, value, at);
        return value;
      case 'optional':
      case 'nullable': {
        // undefined (or null) passes as it is; any other value is the inner schema's.
        const at0 = body.length;
        body.push(`if (${value} !== ${d.type === 'optional' ? 'undefined' : 'null'}) {`);
        const inner = parse(d.innerType as Schema, value, at);
        if (inner === value) {
          body.push('}');
          return value;
        }
        const out = fresh('v');
        body.splice(at0, 0, `let ${out} = ${value};`);
        body.push(`${out} = ${inner};`, '}');
        return out;
      }
      case 'array': {
        refuse(`!Array.isArray(${value})`);
        checks(s, value, at);
        const out = fresh('a');
        const i = fresh('i');
        const item = fresh('v');
        body.push(
          `const ${out} = new Array(${value}.length);`,
          `for (let ${i} = 0; ${i} < ${value}.length; ${i}++) {`,
        );
        body.push(`const ${item} = ${value}[${i}];`);
        body.push(`${out}[${i}] = ${parse(d.element as Schema, item, `${at}[]`)};`, '}');
        return out;
      }
      case 'object': {
        const catchall = (d.catchall as Schema | undefined)?._zod.def.type;
        if (catchall !== 'never')
          throw new Error(`${at}: a fast path is for strict objects (request bodies)`);
        refuse(`typeof ${value} !== 'object' || ${value} === null || Array.isArray(${value})`);
        const out = fresh('o');
        body.push(`const ${out}: AnyValue = {};`);
        const shape = d.shape as Record<string, Schema>;
        for (const [key, field] of Object.entries(shape)) {
          const v = fresh('v');
          const absentOk = field._zod.optin === 'optional' && field._zod.optout === 'optional';
          body.push(
            `const ${v} = ${value}${prop(key)};`,
            `if (${v} !== undefined || ${JSON.stringify(key)} in ${value}) {`,
          );
          body.push(`${out}${prop(key)} = ${parse(field, v, `${at}.${key}`)};`);
          body.push(absentOk ? '}' : '} else return REFUSE;');
        }
        const k = fresh('k');
        const cases = Object.keys(shape).map((key) => `case ${JSON.stringify(key)}:`);
        body.push(
          `for (const ${k} in ${value}) switch (${k}) { ${cases.join(' ')} continue; default: return REFUSE; }`,
        );
        checks(s, out, at);
        return out;
      }
      default:
        throw new Error(`${at}: no fast path for ${d.type}`);
    }
  };

  const result = parse(schema, 'input', where);
  return `(input) => {\n${body.join('\n')}\nreturn ${result};\n}`;
}
