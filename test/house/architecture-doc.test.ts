// ARCHITECTURE.md stays true: every repository path it names exists (a backticked path with a slash
// or a file extension, from the repository root or from src/, and every relative link), and the
// floors of its rooms table hold for every relative import of src/. Each check also runs on a
// planted defect, which it must report. Reads files only: well under a second.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const DOC = 'ARCHITECTURE.md';
const doc = readFileSync(join(root, DOC), 'utf8');

/** File extensions that make a backticked word a path even without a slash (`client.ts`). */
const EXTENSIONS = /\.(ts|mts|mjs|cjs|js|md|json)$/;
/** A path-like word: no space, quote or parenthesis; `<area>` and `*` stand for any name. */
const PATH_LIKE = /^[\w.<>*-]+(\/[\w.<>*-]*)*$/;

/** Every repository path `text` names: backticked paths and relative link targets. */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  const body = text.replace(/```[\s\S]*?```/g, '');
  for (const [, word] of body.matchAll(/`([^`\n]+)`/g)) {
    if (!word || !PATH_LIKE.test(word)) continue;
    if (word.includes('/') || EXTENSIONS.test(word)) found.add(word);
  }
  for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!target || /^([a-z][a-z+.-]*:|#)/i.test(target)) continue; // https:, mailto:, an anchor
    found.add(target.split('#')[0] as string);
  }
  return [...found].sort();
}

/** The entries of package.json: `partner-payments/testing` names one, not a folder. */
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: object };

/** Whether `path` names something that exists, from the repository root or from src/. */
function exists(path: string, base: string): boolean {
  if (path === pkg.name || path.startsWith(`${pkg.name}/`)) {
    return `.${path.slice(pkg.name.length)}` in pkg.exports;
  }
  const folder = path.endsWith('/');
  // A placeholder (`<area>`, `*`): the folder it stands in must exist.
  const wild = path.split('/').findIndex((segment) => /[<>*]/.test(segment));
  const fixed = wild === -1 ? path : `${path.split('/').slice(0, wild).join('/')}/`;
  if (fixed === '/') return false;
  return [base, join(base, 'src')].some((dir) => {
    const full = join(dir, fixed);
    if (!existsSync(full)) return false;
    return folder || wild !== -1 ? statSync(full).isDirectory() : statSync(full).isFile();
  });
}

/** The paths of `text` that name nothing in the repository at `base`. */
function missingPaths(text: string, base = root): string[] {
  return namedPaths(text).filter((path) => !exists(path, base));
}

/** The rooms table: each room of src/ (a file, or a folder ending in `/`) with its floor. */
function roomsOf(text: string): Map<string, number> {
  const rooms = new Map<string, number>();
  for (const [, floor, room] of text.matchAll(/^\| (\d+) \| `(src\/[^`]+)` \|/gm)) {
    rooms.set(room as string, Number(floor));
  }
  return rooms;
}

/** Every .ts file of src/, by path from the repository root, with its text. */
function sources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  walk('src');
  return files;
}

/** The room of a file: the file itself, or the longest room folder it lies in. */
function roomOf(file: string, rooms: Map<string, number>): string | undefined {
  let best: string | undefined;
  for (const room of rooms.keys()) {
    const inside = room.endsWith('/') ? file.startsWith(room) : file === room;
    if (inside && (best === undefined || room.length > best.length)) best = room;
  }
  return best;
}

/**
 * Files in no room, and imports from one room to another on the same or a higher floor, as
 * `from -> to` lines. Every relative import counts, type-only ones included.
 */
function floorViolations(rooms: Map<string, number>, files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    const from = roomOf(file, rooms);
    if (from === undefined) {
      out.push(`${file}: in no room of the table`);
      continue;
    }
    for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport\(?)\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = relative(root, resolve(root, dirname(file), specifier as string)).replace(
        /\.js$/,
        '.ts',
      );
      const to = roomOf(target, rooms);
      if (to === undefined || to === from) continue;
      if ((rooms.get(to) as number) >= (rooms.get(from) as number)) {
        out.push(`${file} -> ${target} (floor ${rooms.get(from)} imports floor ${rooms.get(to)})`);
      }
    }
  }
  return out.sort();
}

describe(`${DOC} names only paths that exist`, () => {
  it('finds the paths it names (a control that the extraction sees them at all)', () => {
    const paths = namedPaths(doc);
    expect(paths).toContain('src/core/call/http.ts');
    expect(paths).toContain('core/limits/retry.ts');
    expect(paths).toContain('schemas/zod/<area>.ts');
    expect(paths.length).toBeGreaterThan(100);
  });

  it('every one of them exists, from the repository root or from src/', () => {
    expect(missingPaths(doc)).toEqual([]);
  });

  it('control: planted missing paths are reported, present ones and non-paths are not', () => {
    const planted = [
      'The core: `src/core/call/http.ts`, `core/call/http.ts`, `core/call/` and `client.ts`.',
      'Gone: `src/core/call/nowhere.ts`, `core/nowhere/`, `nowhere.ts`, `schemas/nowhere/<area>.ts`.',
      'A file named as a folder: `core/types.ts/`; a folder as a file: `core/call`.',
      'Not paths: `client.payments.create(orderId)`, `POST /pos/v1/orders`, `IntentStore.put`.',
      'Entries: `partner-payments/testing` exists, `partner-payments/nowhere` does not.',
      'Links: [retries](docs/retries.md), [gone](docs/nowhere.md), [site](https://example.com/a.md).',
    ].join('\n');
    expect(missingPaths(planted)).toEqual([
      'core/call',
      'core/nowhere/',
      'core/types.ts/',
      'docs/nowhere.md',
      'nowhere.ts',
      'partner-payments/nowhere',
      'schemas/nowhere/<area>.ts',
      'src/core/call/nowhere.ts',
    ]);
  });
});

describe(`the floors of ${DOC}'s rooms table`, () => {
  const rooms = roomsOf(doc);
  const files = sources();

  it('names the rooms of src/ from the ground up', () => {
    expect(rooms.get('src/internal/')).toBe(1);
    expect(rooms.get('src/core/')).toBe(3);
    expect(rooms.size).toBeGreaterThan(10);
  });

  it('every file of src/ is in a room, and every import goes down to a lower floor', () => {
    expect(floorViolations(rooms, files)).toEqual([]);
  });

  it('control: a planted import back up, one across a floor, and a file in no room are reported', () => {
    const planted = new Map(files);
    const sleep = planted.get('src/internal/sleep.ts') as string;
    planted.set(
      'src/internal/sleep.ts',
      `import type { APIError } from '../core/errors/api-errors.js';\n${sleep}`,
    );
    const polling = planted.get('src/polling.ts') as string;
    planted.set('src/polling.ts', `import { verifyWebhook } from './webhooks/verify.js';\n${polling}`);
    planted.set('src/stray.ts', 'export const stray = 1;\n');
    expect(floorViolations(rooms, planted)).toEqual([
      'src/internal/sleep.ts -> src/core/errors/api-errors.ts (floor 1 imports floor 3)',
      'src/polling.ts -> src/webhooks/verify.ts (floor 4 imports floor 4)',
      'src/stray.ts: in no room of the table',
    ]);
  });
});
