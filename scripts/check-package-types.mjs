// The types as a partner's compiler sees them (called by check-package.mjs with the scratch project,
// where no optional peer is installed): every entry's declarations compile with
// `skipLibCheck: false` under `strict`, from ESM (index.d.ts and the like) and from CommonJS
// (index.d.cts), and every value an entry's types declare exists at run time, from `import` and from
// `require`. The build once broke both: dist/testing.d.ts imported msw's types ("Cannot find module
// 'msw'"), and ~27 data types the sources export type-only (Order, Payment...) came out as
// `export const`, so that `Order.parse(x)` type-checked and then failed to load.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { root, run } from './pack.mjs';

const ENTRIES = [
  'partner-payments',
  'partner-payments/webhooks',
  'partner-payments/stores',
  'partner-payments/testing',
];
const OPTIONAL = ['msw', '@opentelemetry/api', 'redis', 'ioredis', 'pg'];

const OPTIONS = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
};

/** Node's types, as any Node.js project has them: the repository's @types/node, and nothing else of
 * its @types (a type root is also where TypeScript looks for an import's types: @types/pg is there). */
function typeRoots(dir) {
  const roots = join(dir, 'type-roots');
  mkdirSync(roots, { recursive: true });
  if (!existsSync(join(roots, 'node')))
    symlinkSync(join(root, 'node_modules', '@types', 'node'), join(roots, 'node'));
  return [roots];
}

/** A module of `entries` (import or require, after `kind`) that binds each entry as a value. */
function entriesModule(kind, entries) {
  const bind = (name, i) =>
    kind === 'esm' ? `import * as e${i} from '${name}';` : `import e${i} = require('${name}');`;
  return `${entries.map(bind).join('\n')}\nexport const entries = { ${entries.map((n, i) => `'${n}': e${i}`).join(', ')} };\n`;
}

/** Compiles `files` ({ name: text }) in `dir`; returns the diagnostics and, per module kind and entry, the value names its types declare. */
export function compileEntries(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((f) => join(dir, f)),
    { ...OPTIONS, typeRoots: typeRoots(dir) },
  );
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const checker = program.getTypeChecker();
  const values = {};
  for (const kind of ['esm', 'cjs']) {
    const source = program.getSourceFile(join(dir, kind === 'esm' ? 'entries.mts' : 'entries.cts'));
    if (!source) continue;
    const module = checker.getSymbolAtLocation(source);
    const entries = checker.getExportsOfModule(module).find((s) => s.name === 'entries');
    const type = checker.getTypeOfSymbolAtLocation(entries, source);
    values[kind] = {};
    // A namespace object's properties are its value exports: a type-only export is not one.
    for (const entry of checker.getPropertiesOfType(type))
      values[kind][entry.name] = checker
        .getPropertiesOfType(checker.getTypeOfSymbolAtLocation(entry, source))
        .map((p) => p.name)
        .filter((name) => name !== 'default');
  }
  return { diagnostics, values };
}

/** The names of each entry's exports at run time, per module kind, from a node run in `dir`. */
function runtimeExports(dir, entries) {
  const script = `
    const { createRequire } = require('node:module');
    const load = createRequire(process.cwd() + '/');
    (async () => {
      const out = { esm: {}, cjs: {} };
      for (const name of ${JSON.stringify(entries)}) {
        out.esm[name] = Object.keys(await import(name)).filter((k) => k !== 'default');
        out.cjs[name] = Object.keys(load(name)).filter((k) => k !== 'default' && k !== '__esModule');
      }
      console.log(JSON.stringify(out));
    })();`;
  writeFileSync(join(dir, 'runtime-exports.cjs'), script);
  return JSON.parse(run(process.execPath, ['runtime-exports.cjs'], dir));
}

/** Values the types declare that the runtime lacks, and runtime exports the types do not declare. */
export function exportMismatches(declared, runtime) {
  const problems = [];
  for (const kind of Object.keys(declared))
    for (const [entry, names] of Object.entries(declared[kind])) {
      const actual = new Set(runtime[kind][entry] ?? []);
      for (const name of names)
        if (!actual.has(name))
          problems.push(`${kind} ${entry}: the types declare a value ${name} the module lacks`);
      for (const name of actual)
        if (!names.includes(name))
          problems.push(`${kind} ${entry}: the module exports ${name}, the types do not`);
    }
  return problems;
}

const format = (diagnostics) =>
  ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => '',
    getNewLine: () => '\n',
  });

/** Runs the checks in the scratch project `scratch`, each with its positive control. */
export async function checkTypes(scratch) {
  const dir = join(scratch, 'types-check');
  const { diagnostics, values } = compileEntries(dir, {
    'entries.mts': entriesModule('esm', ENTRIES),
    'entries.cts': entriesModule('cjs', ENTRIES),
  });
  if (diagnostics.length)
    throw new Error(`types (skipLibCheck: false, no optional peer):\n${format(diagnostics)}`);
  const problems = exportMismatches(values, runtimeExports(dir, ENTRIES));
  if (problems.length) throw new Error(`types against run time:\n  ${problems.join('\n  ')}`);

  // The positive controls, through the same compile: a package whose declarations import an absent
  // optional peer fails it (so skipLibCheck is off and no peer is installed), and a type exported
  // as a value that its module lacks is reported.
  const planted = join(scratch, 'node_modules', 'planted-types');
  mkdirSync(planted, { recursive: true });
  writeFileSync(join(planted, 'package.json'), '{"name":"planted-types","type":"module","main":"index.js"}');
  writeFileSync(join(planted, 'index.js'), 'export const kept = 1;\n');
  writeFileSync(
    join(planted, 'index.d.ts'),
    `${OPTIONAL.map((p, i) => `import type * as p${i} from '${p}';`).join('\n')}\nexport type Peers = [${OPTIONAL.map((_, i) => `typeof p${i}`).join(', ')}];\nexport declare const kept: number;\nexport declare const Order: { parse(x: unknown): unknown };\nexport type Payment = { id: string };\n`,
  );
  const control = compileEntries(join(scratch, 'types-control'), {
    'entries.mts': entriesModule('esm', ['planted-types']),
  });
  const missing = control.diagnostics
    .filter((d) => d.code === 2307)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  for (const peer of OPTIONAL)
    if (!missing.some((m) => m.includes(`'${peer}'`)))
      throw new Error(`types: the planted import of ${peer} compiled: is it installed, or skipLibCheck on?`);
  const plantedProblems = exportMismatches(control.values, { esm: { 'planted-types': ['kept'] } });
  if (plantedProblems.length !== 1 || !plantedProblems[0].includes('value Order'))
    throw new Error(`types: the planted value export went unseen: ${plantedProblems}`);

  const counts = Object.entries(values.esm).map(([entry, names]) => `${entry} ${names.length}`);
  console.log(
    `types: ok, every entry compiles with skipLibCheck: false and none of ${OPTIONAL.join(', ')} installed, ESM and CommonJS; each value the types declare loads (${counts.join(', ')})`,
  );
}
