/**
 * The check that runs docs/testing.md's recipes from the packed package as a vitest suite
 * (scripts/run-recipes.mjs, in the package check): it finds the recipes, and it fails a test that
 * took the 3 s poll interval in real time (its positive control, here on a report; the package check
 * plants a real one).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { plantRealTime, RECIPE_LIMIT_MS, recipeBlocks, recipeProblems } from '../../scripts/run-recipes.mjs';

const testing = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
const report = (tests: [string, number, string?][]) => ({
  testResults: [
    {
      name: '/x/testing_md_2.test.ts',
      status: 'passed',
      assertionResults: tests.map(([title, duration, status = 'passed']) => ({ title, duration, status })),
    },
  ],
});

describe("docs/testing.md's vitest recipes", () => {
  it('are found (the msw recipe and the clock recipe), each a whole test file importing vitest', () => {
    const blocks = recipeBlocks(testing) as { code: string }[];
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.some((b) => b.code.includes("from 'msw/node'"))).toBe(true);
    for (const b of blocks) expect(b.code).toMatch(/from 'vitest'/);
    expect(blocks.filter((b) => plantRealTime(b.code))).toHaveLength(1);
  });

  it('the check passes fast tests and fails one that waited the poll interval (the control)', () => {
    expect(RECIPE_LIMIT_MS).toBeLessThanOrEqual(1_000);
    expect(recipeProblems(report([['fast', 125]]))).toEqual([]);
    expect(
      recipeProblems(
        report([
          ['fast', 125],
          ['slow', 3_049],
        ]),
      ),
    ).toEqual(['testing_md_2.test.ts "slow": 3049 ms, not under 1000 ms']);
    expect(recipeProblems(report([['broken', 5, 'failed']]))).toEqual([
      'testing_md_2.test.ts "broken": failed',
    ]);
  });
});
