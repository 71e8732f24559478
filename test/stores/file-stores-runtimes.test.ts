// api.md 22: fileStores on Bun and Deno, not only Node.js (the rest of the file-store tests run on
// Node). Each runtime runs test/stores/file-stores-runtime.ts from the sources on a directory of its
// own; the same answers as on Node, which runs it too as the control that the script checks anything.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'test/stores/file-stores-runtime.ts');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const RUNTIMES: [string, string, string[]][] = [
  ['Node.js', process.execPath, ['--import', 'tsx', script]],
  ['Bun', bin('bun'), [script]],
  ['Deno', bin('deno'), ['run', '-A', '--sloppy-imports', script]],
];

describe('fileStores on every runtime with a file system', () => {
  it.each(RUNTIMES)(
    '%s: a key leased once, landed, then done; an event claimed once',
    (_name, command, args) => {
      const dir = mkdtempSync(join(tmpdir(), 'pp-file-runtime-'));
      dirs.push(dir);
      const run = spawnSync(command, [...args, dir], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      const line = run.stdout.trim().split('\n').pop() as string;
      expect(JSON.parse(line)).toEqual({
        durable: true,
        statuses: ['acquired', 'busy', 'ok', 'done'],
        stored: 'p-1',
        claims: [true, false],
      });
    },
  );
});
