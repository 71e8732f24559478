// The checks compiled from the zod schemas (src/schemas/compiled/, what the client runs) against the
// zod schemas themselves (src/schemas/zod/): the files are what the compiler writes today, and on
// every recorded case and on generated values both give the same outcome (issues with their paths,
// messages and codes; the parsed value, key order included).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { compileModules, MODULES } from '../../scripts/compile-schemas.js';
import { fullCheckOf } from '../../src/schemas/check/index.js';
import { caseGroupsOf, SUBJECTS } from '../helpers/schema-cases.js';
import { outcome } from '../helpers/schema-outcome.js';

describe('src/schemas/compiled/', () => {
  it('holds what scripts/compile-schemas.ts writes from the zod schemas today', () => {
    for (const { file, text } of compileModules(MODULES)) {
      const onDisk = readFileSync(new URL(`../../src/schemas/compiled/${file}`, import.meta.url), 'utf8');
      expect(onDisk, `src/schemas/compiled/${file} is out of date: npm run gen:schemas`).toBe(text);
    }
  });

  it('refuses a schema whose rules it cannot follow, naming where', () => {
    const refused = (schema: z.ZodType) => () => compileModules([['x', { Bad: schema }]]);
    expect(refused(z.object({ a: z.string().transform((s) => s.length) }))).toThrow(
      /Bad\.a: schema type pipe/,
    );
    expect(refused(z.string().refine((s) => s.length > 1))).toThrow(
      /no zod-free module of src\/schemas exports/,
    );
    expect(refused(z.string().superRefine(() => {}))).toThrow(/not made by ruleCheck/);
    expect(refused(z.url())).toThrow(/string format url/);
    expect(refused(z.object({ a: z.number().default(1) }))).toThrow(/Bad\.a: schema type default/);
    expect(refused(z.string({ error: (i) => `got ${String(i.input)}` }))).toThrow(/depends on the issue/);
  });
});

describe('the compiled checks and the zod schemas', () => {
  it.each(SUBJECTS.map((s) => [s.name, s] as const))(
    '%s: the same outcome on every recorded case',
    (_n, s) => {
      const differences: string[] = [];
      for (const cases of Object.values(caseGroupsOf(s))) {
        for (const c of cases) {
          const zod = outcome(s, s.schema, c.input());
          const compiled = outcome(s, s.compiled, c.input());
          // Without its fast path, as the build for Workers and browsers runs it.
          const full = outcome(s, fullCheckOf(s.compiled as never) as never, c.input());
          if (zod !== compiled)
            differences.push(`${c.name}\n    zod:      ${zod}\n    compiled: ${compiled}`);
          if (zod !== full) differences.push(`${c.name}\n    zod:      ${zod}\n    full:     ${full}`);
        }
      }
      expect(differences.slice(0, 10).join('\n')).toBe('');
    },
  );

  // Any value at a random place of a valid one, or any value at all: both agree.
  const anyValue = fc.oneof(
    fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withMap: true, withNullPrototype: true }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'grapheme', maxLength: 45 }),
    fc.double(),
    fc.integer({ min: -5, max: 205 }),
    fc.constantFrom(
      undefined,
      null,
      '',
      'x',
      0,
      -0,
      1,
      2 ** 53,
      Number.NaN,
      '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11',
    ),
  );
  it.each(SUBJECTS.map((s) => [s.name, s] as const))('%s: the same outcome on generated values', (_n, s) => {
    const arb = fc.tuple(
      fc.array(fc.tuple(fc.constantFrom(...s.paths), anyValue, fc.boolean()), { minLength: 0, maxLength: 4 }),
      fc.boolean(),
      anyValue,
    );
    fc.assert(
      fc.property(arb, ([changes, whole, other]) => {
        const build = () => {
          if (whole) return other;
          const value = s.valid();
          for (const [path, v, remove] of changes) setAt(value, path, v, remove);
          return value;
        };
        const zod = outcome(s, s.schema, build());
        expect(outcome(s, s.compiled, build())).toBe(zod);
        expect(outcome(s, fullCheckOf(s.compiled as never) as never, build())).toBe(zod);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a compiled check as the SDK calls it', () => {
  // Typed as the zod schema it was compiled from: every zod method the SDK's code calls on one must
  // exist (the exactly-once runner parses a landed payment or refund with `parse`).
  it.each(SUBJECTS.map((s) => [s.name, s] as const))(
    '%s: parse returns what safeParse returns, or throws its issues',
    (_n, s) => {
      const valid = s.valid();
      const parsed = s.compiled.safeParse(valid);
      expect(parsed.success).toBe(true);
      expect((s.compiled as unknown as { parse(v: unknown): unknown }).parse(valid)).toEqual(
        parsed.success ? parsed.data : undefined,
      );
      const bad = s.compiled.safeParse(42);
      expect(bad.success).toBe(false);
      let thrown: unknown;
      try {
        (s.compiled as unknown as { parse(v: unknown): unknown }).parse(42);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as { issues: unknown }).issues).toEqual(bad.success ? undefined : bad.error.issues);
    },
  );
});

function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean) {
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (node === null || typeof node !== 'object' || path.length === 0) return;
  const last = path[path.length - 1]!;
  if (remove) delete (node as Record<string | number, unknown>)[last];
  else (node as Record<string | number, unknown>)[last] = value;
}
