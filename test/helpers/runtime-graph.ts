// The modules a source file loads at run time: the relative files it reaches through value imports
// (type-only imports are erased), and the packages it names.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function runtimeGraph(file: string, files = new Set<string>(), packages = new Set<string>()) {
  if (files.has(file)) return { files, packages };
  files.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.'))
      runtimeGraph(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), files, packages);
    else packages.add(spec);
  }
  return { files, packages };
}
