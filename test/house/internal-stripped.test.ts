// Declarations tagged @internal stay out of the shipped types: tsup.config.ts builds them with
// TypeScript's `stripInternal`, and `npm run check:api` (scripts/api-report.mjs, after the build in
// `npm test`) fails when one reaches a .d.ts or .d.cts under dist/. Here: the check on planted
// declaration text, which it must report, and on clean text, which it must not; and the two things
// the build relies on.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Options } from 'tsup';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { internalLeaks, shippedInternals } from '../../scripts/api-report.mjs';
import config from '../../tsup.config.js';

const root = resolve(import.meta.dirname, '../..');
mkdirSync(join(root, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(root, '.tmp', 'internal-stripped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const planted = `/** The spec of a call. */
export interface Spec {
    /** The path. */
    path: string;
    /**
     * The runner's hold on the call.
     * @internal
     */
    settle?: unknown;
}
export declare class Store {
    /** @internal */
    beginNow(key: string): void;
    get(key: string): Promise<string>;
}
/** @internal */
export declare function revise(record: object): object;
/** A constant. @internal */
export declare const HOOK: unique symbol;
`;

const clean = `/** The spec of a call; see {@link Store}. */
export interface Spec {
    /** The path, internal to nothing. */
    path: string;
}
export declare class Store {
    get(key: string): Promise<string>;
}
`;

describe('the @internal check of the shipped types', () => {
  it('reports each planted @internal declaration by name and line (the positive control)', () => {
    expect(internalLeaks(planted, 'index.d.ts')).toEqual([
      { name: 'Spec.settle', line: 9 },
      { name: 'Store.beginNow', line: 13 },
      { name: 'revise', line: 17 },
      { name: 'HOOK', line: 19 },
    ]);
  });

  it('reports nothing in declarations without the tag', () => {
    expect(internalLeaks(clean, 'index.d.ts')).toEqual([]);
  });

  it('walks every .d.ts and .d.cts of a dist folder, chunks and subfolders included', () => {
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'cli'), { recursive: true });
    writeFileSync(join(dist, 'index.d.ts'), clean);
    writeFileSync(join(dist, 'index-Ab12Cd.d.cts'), planted);
    writeFileSync(join(dist, 'cli', 'mock.d.ts'), '/** @internal */\nexport declare const x: 1;\n');
    // Not a declaration file: its comments are not types.
    writeFileSync(join(dist, 'index.js'), '/** @internal */\nexport const x = 1;\n');
    const leaks = shippedInternals(dist);
    expect(leaks.map((leak: { file: string; name: string }) => `${leak.file} ${leak.name}`).sort()).toEqual([
      'cli/mock.d.ts x',
      'index-Ab12Cd.d.cts HOOK',
      'index-Ab12Cd.d.cts Spec.settle',
      'index-Ab12Cd.d.cts Store.beginNow',
      'index-Ab12Cd.d.cts revise',
    ]);
    expect(shippedInternals(join(dist, 'cli'))).toHaveLength(1);
  });
});

describe('what the stripped build relies on', () => {
  it("sets stripInternal for the entries' declaration build", () => {
    // tsup.config.ts exports a list of plain option objects (no function of the CLI's options).
    const builds = (Array.isArray(config) ? config : [config]) as Options[];
    const typed = builds.filter((build) => build.dts);
    expect(typed.length).toBeGreaterThan(0);
    for (const build of typed) expect(build.dts).toMatchObject({ compilerOptions: { stripInternal: true } });
  });

  // stripInternal drops a declaration whose leading comments hold the text `@internal` anywhere,
  // a line comment included: a remark naming the tag above an export would take that export out of
  // the types, and only the API report's diff would show it. So the text stands only as a tag.
  it('finds `@internal` in src/ only as a doc comment tag', () => {
    const misplaced: string[] = [];
    const walk = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts'))
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach((line, i) => {
              if (line.includes('@internal') && !/^\s*(\/\*\*|\*)\s*@internal(\s|\*\/|$)/.test(line))
                misplaced.push(`${path.slice(root.length + 1)}:${i + 1}`);
            });
      }
    };
    walk(join(root, 'src'));
    expect(misplaced).toEqual([]);
  });
});
