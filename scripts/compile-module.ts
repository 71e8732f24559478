// The compiler of one zod module (used by scripts/compile-schemas.ts): each exported schema as a
// compiled check built from the kit of src/schemas/check/, read from the schema's definition
// (`_zod.def`); anything the kit does not implement is refused with where it is.
import type * as z from 'zod';
import { ruleOf } from '../src/schemas/zod/fields.js';
import { fastAccept } from './compile-fast.js';

/**
 * The hot request shapes: their compiled check also gets a fast path (scripts/compile-fast.ts),
 * straight-line code for the value that passes.
 */
const HOT = new Set(['OrderCreateRequest']);

export type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & {
  type: string;
  checks?: { _zod: { def: Def } }[];
  error?: (i: unknown) => unknown;
};

export const isSchema = (v: unknown): v is Schema =>
  typeof v === 'object' && v !== null && '_zod' in v && typeof (v as Schema)._zod.def?.type === 'string';

export class Unsupported extends Error {}

/** A module's exports by name (an ES module namespace lists them so; a transformed module may not). */
export const sortedEntries = (exports: Record<string, unknown>) =>
  Object.entries(exports).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The static message of a definition's `error`, if it has one. */
function messageOf(def: Def, where: string): string | undefined {
  if (!def.error) return undefined;
  const a = def.error({ code: 'custom', input: 1, path: [] });
  const b = def.error({ code: 'invalid_type', input: 'x', path: ['k'] });
  if (typeof a !== 'string' || a !== b)
    throw new Unsupported(`${where}: an error message that depends on the issue`);
  return a;
}

/** The imports and module constants a generated file needs, and how a value is named in it. */
function fileRefs(values: Map<unknown, { path: string; name: string }>) {
  const imports = new Map<string, Set<string>>();
  const hoisted = new Map<RegExp, string>();
  const use = (path: string, name: string) => {
    if (!imports.has(path)) imports.set(path, new Set());
    imports.get(path)!.add(name);
  };
  const valueRef = (v: unknown, where: string): string => {
    if (v === Number.isFinite) return 'Number.isFinite';
    const found = values.get(v);
    if (found) {
      use(found.path, found.name);
      return found.name;
    }
    if (v instanceof RegExp) {
      // A pattern no module exports: one module constant, built once.
      if (!hoisted.has(v)) hoisted.set(v, `PATTERN_${hoisted.size}`);
      return hoisted.get(v)!;
    }
    throw new Unsupported(`${where}: a function that no zod-free module of src/schemas exports`);
  };
  /**
   * The name of a value list that a zod-free module exports with exactly these options, in this
   * order (the event kinds, say): the compiled check imports that list rather than copying it.
   */
  const listRef = (options: readonly unknown[]): string | undefined => {
    for (const [v, found] of values) {
      if (Array.isArray(v) && v.length === options.length && v.every((o, i) => o === options[i])) {
        use(found.path, found.name);
        return found.name;
      }
    }
    return undefined;
  };
  const head = (kit: Set<string>) => [
    `import { ${[...kit].sort((a, b) => a.replace('type ', '').localeCompare(b.replace('type ', ''))).join(', ')} } from '../check/index.js';`,
    ...[...imports]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([path, names]) => `import { ${[...names].sort().join(', ')} } from '${path}';`),
  ];
  const patterns = () =>
    [...hoisted].map(
      ([re, name]) =>
        `const ${name} = /* @__PURE__ */ new RegExp(${JSON.stringify(re.source)}, ${JSON.stringify(re.flags)});`,
    );
  return { use, valueRef, listRef, head, patterns };
}

/**
 * The text of the compiled module `module` (before formatting), by file name: `<module>.ts`, and for
 * a module with a hot schema `<module>.fast.ts` (the fast paths, for Node.js and the like) and
 * `<module>.fast.web.ts` (none: the build for Workers and browsers keeps its bundle small).
 */
export function compileModule(
  module: string,
  exports: Record<string, unknown>,
  home: Map<Schema, { module: string; name: string }>,
  values: Map<unknown, { path: string; name: string }>,
): Record<string, string> {
  const kit = new Set<string>(['type Schema']);
  const { use, valueRef, listRef, head, patterns } = fileRefs(values);
  const fastRefs = fileRefs(values);
  const fastLines: string[] = [];
  const lines: string[] = [];
  const done = new Set<Schema>();
  const call = (fn: string, args: string[]) => {
    kit.add(fn);
    while (args.length && (args[args.length - 1] === 'undefined' || args[args.length - 1] === '[]'))
      args.pop();
    return `/* @__PURE__ */ ${fn}(${args.join(', ')})`;
  };
  const text = (s: string | undefined) => (s === undefined ? 'undefined' : JSON.stringify(s));

  const checksOf = (s: Schema, owner: string | undefined, where: string): string[] => {
    const out: string[] = [];
    for (const check of (s._zod.def as Def).checks ?? []) {
      const d = check._zod.def;
      const at = `${where} (${String(d.check)})`;
      if (d.abort) throw new Unsupported(`${at}: abort`);
      if (d.path || d.params) throw new Unsupported(`${at}: path or params on a check`);
      const message = messageOf(d, at) ?? owner;
      if (d.when && d.check !== 'min_length' && d.check !== 'max_length')
        throw new Unsupported(`${at}: when`);
      switch (d.check) {
        case 'string_format':
          if (d.format !== 'regex') throw new Unsupported(`${at}: format ${String(d.format)}`);
          out.push(call('pattern', [valueRef(d.pattern, at), text(message)]));
          break;
        case 'min_length':
          out.push(call('minLength', [String(d.minimum), text(message)]));
          break;
        case 'max_length':
          out.push(call('maxLength', [String(d.maximum), text(message)]));
          break;
        case 'greater_than':
          out.push(call('above', [String(d.value), String(Boolean(d.inclusive)), text(message)]));
          break;
        case 'less_than':
          out.push(call('below', [String(d.value), String(Boolean(d.inclusive)), text(message)]));
          break;
        case 'custom': {
          if (typeof d.fn === 'function') {
            out.push(call('refine', [valueRef(d.fn, at), text(message)]));
            break;
          }
          const rule = ruleOf(check);
          if (!rule) throw new Unsupported(`${at}: a refinement not made by ruleCheck()`);
          out.push(call('rule', [valueRef(rule, at)]));
          break;
        }
        default:
          throw new Unsupported(`${at}: check ${String(d.check)}`);
      }
    }
    return out;
  };

  const expr = (s: Schema, where: string): string => {
    const named = home.get(s);
    if (named && named.module !== module) {
      use(`./${named.module}.js`, named.name);
      return named.name;
    }
    if (named && done.has(s)) return named.name;
    if (named && !done.has(s) && where !== named.name) {
      define(s, named.name);
      return named.name;
    }
    const d = s._zod.def as Def;
    if (d.coerce) throw new Unsupported(`${where}: coerce`);
    const message = messageOf(d, where);
    const list = (items: string[]) => `[${items.join(', ')}]`;
    switch (d.type) {
      case 'string': {
        const checks = checksOf(s, message, where);
        if (d.format === 'email')
          checks.unshift(call('pattern', [valueRef(d.pattern, where), text(message), "'email'"]));
        else if (d.format) throw new Unsupported(`${where}: string format ${String(d.format)}`);
        return call('string', [text(message), list(checks)]);
      }
      case 'number':
        if (d.format && d.format !== 'safeint')
          throw new Unsupported(`${where}: number format ${String(d.format)}`);
        return call(d.format ? 'int' : 'number', [text(message), list(checksOf(s, message, where))]);
      case 'boolean':
      case 'unknown':
      case 'enum':
      case 'literal':
      case 'optional':
      case 'nullable':
      case 'record':
        if (d.checks?.length) throw new Unsupported(`${where}: checks on ${d.type}`);
        return leaf(s, d, message, where);
      case 'union':
        if (d.inclusive === false || d.discriminator)
          throw new Unsupported(`${where}: an exclusive or discriminated union`);
        return call('union', [
          list((d.options as Schema[]).map((o, i) => expr(o, `${where} | ${i}`))),
          text(message),
        ]);
      case 'array':
        return call('array', [
          expr(d.element as Schema, `${where}[]`),
          text(message),
          list(checksOf(s, message, where)),
        ]);
      case 'object': {
        const catchall = (d.catchall as Schema | undefined)?._zod.def.type;
        const extra =
          catchall === undefined
            ? 'strip'
            : catchall === 'never'
              ? 'strict'
              : catchall === 'unknown'
                ? 'loose'
                : '';
        if (!extra) throw new Unsupported(`${where}: catchall ${String(catchall)}`);
        const shape = Object.entries(d.shape as Record<string, Schema>).map(
          ([key, field]) => `${JSON.stringify(key)}: ${expr(field, `${where}.${key}`)}`,
        );
        return call('object', [
          `{ ${shape.join(', ')} }`,
          `'${extra}'`,
          text(message),
          list(checksOf(s, message, where)),
        ]);
      }
      case 'custom':
        return call('custom', [valueRef(d.fn, where), text(message), list(checksOf(s, message, where))]);
      default:
        throw new Unsupported(`${where}: schema type ${d.type}`);
    }
  };

  const leaf = (s: Schema, d: Def, message: string | undefined, where: string): string => {
    switch (d.type) {
      case 'boolean':
        return call('boolean', [text(message)]);
      case 'unknown':
        return call('unknown', []);
      case 'enum':
      case 'literal': {
        const options =
          d.type === 'enum'
            ? [...((s as unknown as { options: unknown[] }).options ?? [])]
            : (d.values as unknown[]);
        const list = d.type === 'enum' ? listRef(options) : undefined;
        return call('oneOf', [list ?? JSON.stringify(options), text(message)]);
      }
      case 'optional':
        return call('optional', [expr(d.innerType as Schema, `${where}?`)]);
      case 'nullable':
        return call('nullable', [expr(d.innerType as Schema, `${where}|null`)]);
      default: {
        const key = (d.keyType as Schema)._zod.def as Def;
        if (key.type !== 'string' || key.format || key.checks?.length || d.mode === 'loose') {
          throw new Unsupported(`${where}: a record whose keys are not plain strings`);
        }
        return call('record', [expr(d.valueType as Schema, `${where}{}`), text(message)]);
      }
    }
  };

  const define = (s: Schema, name: string) => {
    if (done.has(s)) return;
    let body = expr(s, name);
    if (HOT.has(name)) {
      const accept = `accept${name}`;
      fastLines.push(
        `export const ${accept}: Accept | undefined = ${fastAccept(s, fastRefs.valueRef, name).replace('(input) =>', '(input: AnyValue) =>')};`,
      );
      use(`./${module}.fast.js`, accept);
      body = call('fast', [body, accept]);
    }
    done.add(s);
    // Typed as the zod schema it was compiled from as well, so that it goes where that schema went
    // (`Requester.request`, whose public signature names zod's `ZodType`): the code it reaches only
    // calls `safeParse` and `parse`, which it has. An assertion, so nothing of it is left at run time.
    lines.push(`export const ${name} = ${body} as typeof Z.${name} & Schema;`);
  };
  for (const [name, value] of sortedEntries(exports)) {
    if (isSchema(value) && home.get(value)?.module === module && home.get(value)?.name === name)
      define(value, name);
  }

  const header = (what: string) => [
    `// Generated from src/schemas/zod/${module}.ts by scripts/compile-schemas.ts: do not edit.`,
    what,
  ];
  const files: Record<string, string> = {
    [`${module}.ts`]: [
      ...header(
        '// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts\n// holds the two equal.',
      ),
      ...head(kit),
      `import type * as Z from '../zod/${module}.js';`,
      '',
      ...patterns(),
      ...lines,
      '',
    ].join('\n'),
  };
  if (fastLines.length) {
    const names = fastLines.map((l) => /export const (\w+)/.exec(l)![1]!);
    files[`${module}.fast.ts`] = [
      ...header(
        `// The fast paths of its hot request checks (scripts/compile-fast.ts): straight-line code that\n// returns the parsed value when it is sure the value passes, else REFUSE (the full check then runs).`,
      ),
      ...fastRefs.head(new Set(['type Accept', 'type AnyValue', 'REFUSE'])),
      '',
      ...fastRefs.patterns(),
      ...fastLines,
      '',
    ].join('\n');
    files[`${module}.fast.web.ts`] = [
      ...header(
        `// The build for Workers, edge runtimes and browsers resolves ${module}.fast.js here (tsup.config.ts): no\n// fast paths, for a smaller bundle; the full checks run, with the same outcome.`,
      ),
      "import type { Accept } from '../check/index.js';",
      '',
      ...names.map((n) => `export const ${n}: Accept | undefined = undefined;`),
      '',
    ].join('\n');
  }
  return files;
}
