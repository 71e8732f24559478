// Fails when any import cycle runs through src/, type-only imports included (a type cycle is still
// a dependency a reader must hold in mind both ways). Run by `npm test`; test/house/cycles.test.ts
// shows it catching a planted cycle.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import madge from 'madge';

/** The import cycles under `dir`, each as the list of files (relative to `dir`) that form it. */
export async function findCycles(dir) {
  const graph = await madge(dir, {
    fileExtensions: ['ts'],
    // Type-only imports count: `import type` and `import { type X }` are edges too.
    detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
  });
  return graph.circular();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = resolve(import.meta.dirname, '..', process.argv[2] ?? 'src');
  const cycles = await findCycles(dir);
  if (cycles.length > 0) {
    console.error(`check-cycles: ${cycles.length} import cycle(s) under ${dir}:`);
    for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' -> ')}`);
    console.error('Move the type that two files need into a third file that both import.');
    process.exit(1);
  }
  console.log(`check-cycles: no import cycle under ${dir} (type-only imports included)`);
}
