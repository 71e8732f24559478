// The cycle check of `npm test` (scripts/check-cycles.mjs) on the real src/, and on a copy of it with a
// planted cycle: one that runs only through type imports must fail the check too.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { findCycles } from '../../scripts/check-cycles.mjs';

// The planted-cycle check (over a copy of src/) takes about 10 s here, with two test files
// sharing 2 cores: the 20 s default leaves too little room on a slower machine. A hang still fails.
vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'scripts/check-cycles.mjs');
const copies: string[] = [];

function copyOfSrc(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-cycles-'));
  copies.push(dir);
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  return join(dir, 'src');
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('import cycles under src/', () => {
  it('finds none in the sources', async () => {
    expect(await findCycles(join(root, 'src'))).toEqual([]);
  });

  it('finds a planted cycle that runs through type-only imports, and the script exits 1', async () => {
    const src = copyOfSrc();
    // types.ts is imported by http.ts; a type import back closes the loop.
    appendFileSync(
      join(src, 'core/types.ts'),
      "\nimport type { CoreConfig } from './call/http.js';\nexport type PlantedCycle = CoreConfig;\n",
    );
    const cycles: string[][] = await findCycles(src);
    expect(
      cycles.some((cycle) => cycle.includes('core/types.ts') && cycle.includes('core/call/http.ts')),
    ).toBe(true);

    const run = promisify(execFile)(process.execPath, [script, src]);
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('core/types.ts'),
    });
  });

  it('finds a planted cycle of value imports', async () => {
    const src = copyOfSrc();
    appendFileSync(join(src, 'version.ts'), "\nexport { PaymentsClient as Planted } from './client.js';\n");
    const cycles: string[][] = await findCycles(src);
    expect(cycles.some((cycle) => cycle.includes('version.ts'))).toBe(true);
  });
});
