// Inside each folder listed below, the rooms (its immediate subfolders and its top-level .ts files)
// can be stacked on floors so that every import goes down: no room imports one that, through its own
// imports, comes back to it. A loop between two rooms means neither can be read, tested or moved
// without the other, even when no loop of files shows (test/house/cycles.test.ts sees only those).
// Every relative import counts, type-only ones included; an import that leaves the folder is the
// business of the folder above. Each check also runs on a planted loop, which it must report.
// Reads files only: well under a second.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** Every .ts file under `dir` (a path from the repository root), with its text. */
function sources(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(join(root, at))) {
      const path = `${at}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  walk(dir);
  return files;
}

/**
 * The relative specifiers a file imports: `import ... from`, `export ... from`, a bare
 * `import '...'`, and `import('...')` (a dynamic import, or `typeof import(...)` in a type, is a
 * tie all the same). The statement forms must start a line and hold no `=` or backtick before the
 * specifier, so that code quoted in a string (`export const code = \`import ...\``) draws no arrow.
 */
function specifiers(text: string): string[] {
  const statements = /^\s*(?:import|export)\b[^'"`;=]*?['"](\.{1,2}\/[^'"]+)['"]/gm;
  const calls = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  return [...text.matchAll(statements), ...text.matchAll(calls)].map(([, specifier]) => specifier as string);
}

/** The file a specifier names: sources import `./x.js` for `./x.ts`, and a folder by its index. */
function target(file: string, specifier: string, files: Map<string, string>): string {
  const path = posix.join(dirname(file), specifier);
  const candidates = [path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`];
  return candidates.find((candidate) => files.has(candidate)) ?? path;
}

/** The room of `file` inside `folder`: its first segment below the folder, or none outside it. */
function roomOf(folder: string, file: string): string | undefined {
  if (!file.startsWith(`${folder}/`)) return undefined;
  const [first, ...rest] = file.slice(folder.length + 1).split('/');
  return rest.length > 0 ? `${first}/` : first;
}

/** Room -> room -> the file-to-file imports that draw that arrow (`from -> to`). */
type Graph = Map<string, Map<string, string[]>>;

/** The arrows between the rooms of `folder`, each with the imports that draw it. */
function roomGraph(folder: string, files: Map<string, string>): Graph {
  const graph: Graph = new Map();
  for (const [file, text] of files) {
    const from = roomOf(folder, file);
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of specifiers(text)) {
      const to = target(file, specifier, files);
      const room = roomOf(folder, to);
      if (room === undefined || room === from) continue;
      const arrows = graph.get(from) as Map<string, string[]>;
      const why = `${file.slice(folder.length + 1)} -> ${to.slice(folder.length + 1)}`;
      arrows.set(room, [...(arrows.get(room) ?? []), why]);
    }
  }
  return graph;
}

/** The groups of rooms that reach each other (Tarjan's strongly connected components), each sorted. */
function loops(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (room: string) => {
    index.set(room, index.size);
    low.set(room, index.get(room) as number);
    stack.push(room);
    for (const next of graph.get(room)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(room, Math.min(low.get(room) as number, index.get(next) as number));
      }
    }
    if (low.get(room) === index.get(room)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        group.push(member);
      } while (member !== room);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const room of [...graph.keys()].sort()) if (!index.has(room)) visit(room);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/**
 * One circle through each loop, as a line a reader can follow back to the code: the shortest way
 * from the loop's first room round to itself, each step with the first import that draws it.
 */
function circles(graph: Graph): string[] {
  return loops(graph).map((group) => {
    const start = group[0] as string;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0 && !cameFrom.has(start)) {
      const room = queue.shift() as string;
      for (const next of graph.get(room)?.keys() ?? []) {
        if (!group.includes(next) || cameFrom.has(next)) continue;
        cameFrom.set(next, room);
        queue.push(next);
      }
    }
    const path = [start];
    for (let room = cameFrom.get(start) as string; room !== start; room = cameFrom.get(room) as string) {
      path.unshift(room);
    }
    path.unshift(start);
    const steps = path.slice(1).map((room, i) => {
      const from = path[i] as string;
      const why = graph.get(from)?.get(room) ?? [];
      return `${from} -> ${room} (${why[0]}${why.length > 1 ? ` and ${why.length - 1} more` : ''})`;
    });
    return `${group.join(', ')}: ${steps.join('; ')}`;
  });
}

/**
 * The folders whose rooms must stand on floors. A folder whose loop is known and being opened
 * elsewhere is listed with the reason, and its check is expected to fail until then: when the
 * loop is gone, `it.fails` fails in turn, and the entry must be struck from this list.
 */
const FOLDERS: { folder: string; openLoop?: string }[] = [
  { folder: 'src' },
  { folder: 'src/core' },
  { folder: 'src/testing' },
  { folder: 'src/cli' },
];

describe('the rooms of each folder stand on floors: no import runs back up', () => {
  const files = sources('src');

  for (const { folder, openLoop } of FOLDERS) {
    const check = () => {
      const graph = roomGraph(folder, files);
      // A control that the folder was read at all: a folder of rooms has arrows between them.
      expect([...graph.values()].some((arrows) => arrows.size > 0)).toBe(true);
      expect(circles(graph), `loops between the rooms of ${folder}`).toEqual([]);
    };
    if (openLoop === undefined) it(`${folder}`, check);
    else it.fails(`${folder} (open loop: ${openLoop})`, check);
  }

  it('control: a planted loop between rooms is reported with the imports that close it', () => {
    const planted = new Map([
      ['app/index.ts', "export { serve } from './server/serve.js';\n"],
      ['app/server/serve.ts', "import { page } from '../views/page.js';\nexport const serve = page;\n"],
      // The way back up: a type-only import, across a multi-line import list.
      [
        'app/views/page.ts',
        "import type {\n  Options,\n} from '../server/options.js';\nexport const page = 1;\n",
      ],
      ['app/server/options.ts', 'export type Options = {};\n'],
      // Ties that must draw no arrow: inside one room, out of the folder, and quoted code.
      ['app/views/parts.ts', "import './page.js';\nimport { x } from '../../lib/x.js';\n"],
      ['app/clock.ts', "export const code = `import { serve } from './server/serve.js';`;\n"],
    ]);
    const graph = roomGraph('app', planted);
    expect(circles(graph)).toEqual([
      'server/, views/: server/ -> views/ (server/serve.ts -> views/page.ts); ' +
        'views/ -> server/ (views/page.ts -> server/options.ts)',
    ]);
    expect([...(graph.get('clock.ts')?.keys() ?? [])]).toEqual([]);
    expect([...(graph.get('index.ts')?.keys() ?? [])]).toEqual(['server/']);

    // Without the way back, the same rooms stand on floors.
    planted.set('app/views/page.ts', 'export const page = 1;\n');
    expect(circles(roomGraph('app', planted))).toEqual([]);
  });
});
