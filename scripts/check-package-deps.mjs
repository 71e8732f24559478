// What a production install carries (called by check-package.mjs with the installed package): every
// runtime dependency is imported by dist/ (jose was listed for a year after the last import of it
// went), and every package dist/ imports, from its JavaScript or its types, is a dependency or a
// peer. Imports are read with TypeScript's own scanner, so that an `import` in a comment (the TSDoc
// examples import pg, express, @opentelemetry/api) does not count.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

/** The package a specifier names (`zod/v4/core` is zod, `@scope/x/y` is @scope/x), or undefined. */
function packageOf(specifier) {
  if (/^(\.|\/|node:|data:)/.test(specifier) || builtinModules.includes(specifier.split('/')[0]))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every package imported by a file of `dist` (JavaScript and declarations), with a file naming it. */
export function importedPackages(dist) {
  const found = new Map();
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|cjs|mjs|d\.ts|d\.cts|d\.mts)$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const name = packageOf(fileName);
      if (name && !found.has(name)) found.set(name, file);
    }
  }
  return found;
}

/** The problems of a manifest against what dist/ imports: unused dependencies, undeclared imports. */
export function dependencyProblems(manifest, imported) {
  const problems = [];
  for (const name of Object.keys(manifest.dependencies ?? {}))
    if (!imported.has(name))
      problems.push(`${name} is a dependency, but nothing in dist/ imports it: every install carries it`);
  const declared = { ...manifest.dependencies, ...manifest.peerDependencies };
  for (const [name, file] of imported)
    if (!(name in declared) && name !== manifest.name)
      problems.push(`${file} imports ${name}, which is neither a dependency nor a peer`);
  return problems;
}

/** Runs the check on the package installed at `pkg` (node_modules/partner-payments). */
export function checkDependencies(pkg) {
  const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const imported = importedPackages(join(pkg, 'dist'));
  const problems = dependencyProblems(manifest, imported);
  if (problems.length) throw new Error(`dependencies:\n  ${problems.join('\n  ')}`);
  // The positive control: the same check catches a planted unused dependency and a planted import.
  const planted = dependencyProblems(
    { ...manifest, dependencies: { ...manifest.dependencies, 'left-pad': '1' } },
    new Map([...imported, ['express', 'dist/planted.js']]),
  );
  if (planted.length !== 2) throw new Error(`dependencies: the planted defects went unseen: ${planted}`);
  const names = Object.keys(manifest.dependencies ?? {}).join(', ');
  console.log(
    `dependencies: ok, each of ${names} is imported by dist/, and dist/ imports nothing undeclared`,
  );
}
