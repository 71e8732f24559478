// The recipes of docs/testing.md (its ```ts vitest blocks) run as a partner's vitest suite would:
// each block a test file, as written, in a project of its own that installs the packed package
// (copied from the scratch project, so that it finds msw beside it), msw and vitest. Every test must
// pass in well under a second of real time (RECIPE_LIMIT_MS): a recipe that waits the 3 s poll
// interval in real time fails the check. Its positive control: a copy of the clock recipe on a
// real-time clock, which waits that interval, must be the one test reported slow.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './pack.mjs';

/** The most real time one recipe test may take. */
export const RECIPE_LIMIT_MS = 1_000;

/** The ```ts vitest blocks of a page, numbered from 1. */
export function recipeBlocks(text) {
  return [...text.matchAll(/```ts vitest\n([\s\S]*?)```/g)].map((m, i) => ({ index: i + 1, code: m[1] }));
}

/** The control: the clock recipe with a clock that follows real time, so each poll waits 3 s. */
export function plantRealTime(code) {
  const planted = code.replace('clock: { realTime: false }', 'clock: { realTime: true }');
  return planted === code ? undefined : planted;
}

/** The tests of a vitest JSON report that failed or took `limit` ms or more, as lines. */
export function recipeProblems(report, limit = RECIPE_LIMIT_MS) {
  const problems = [];
  for (const file of report.testResults ?? []) {
    const name = file.name.split('/').pop();
    if (file.status !== 'passed' && (file.assertionResults ?? []).length === 0)
      problems.push(`${name}: ${file.message || 'failed to run'}`);
    for (const test of file.assertionResults ?? []) {
      const ms = Math.round(test.duration ?? 0);
      if (test.status !== 'passed') problems.push(`${name} "${test.title}": ${test.status}`);
      else if (ms >= limit) problems.push(`${name} "${test.title}": ${ms} ms, not under ${limit} ms`);
    }
  }
  return problems;
}

/** Each test's duration, for the report line. */
const durations = (report) =>
  (report.testResults ?? []).flatMap((f) =>
    (f.assertionResults ?? []).map((t) => Math.round(t.duration ?? 0)),
  );

/** Writes the recipe project under `dir` with the package from `packageDir`, runs vitest, returns its report. */
export function runRecipeProject(dir, packageDir, files) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'recipes', private: true, type: 'module' }),
  );
  cpSync(packageDir, join(dir, 'node_modules', 'partner-payments'), { recursive: true, dereference: true });
  for (const name of ['msw', 'vitest'])
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    "export default { test: { include: ['*.test.ts'], testTimeout: 20_000, pool: 'forks' } };\n",
  );
  for (const [file, code] of Object.entries(files)) writeFileSync(join(dir, file), code);
  const out = join(dir, 'report.json');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const ran = spawnSync(process.execPath, [vitest, 'run', '--reporter=json', `--outputFile=${out}`], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (!existsSync(out)) throw new Error(`recipes: vitest wrote no report:\n${ran.stdout}${ran.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8'));
}

/** The package check's step: the recipes from the package installed in `scratch`, and the control. */
export function checkTestingRecipes(scratch) {
  const pkg = join(scratch, 'node_modules', 'partner-payments');
  const blocks = recipeBlocks(readFileSync(join(pkg, 'docs', 'testing.md'), 'utf8'));
  if (blocks.length < 2)
    throw new Error(`recipes: docs/testing.md has ${blocks.length} vitest recipes, expected 2 or more`);
  const files = Object.fromEntries(blocks.map((b) => [`testing_md_${b.index}.test.ts`, b.code]));
  const clock = blocks.find((b) => plantRealTime(b.code));
  if (!clock) throw new Error('recipes: no recipe on a manual clock to plant the control in');
  files['planted_real_time.test.ts'] = plantRealTime(clock.code);
  const report = runRecipeProject(join(scratch, 'recipes'), pkg, files);
  const problems = recipeProblems(report);
  const planted = problems.filter((p) => p.startsWith('planted_real_time.test.ts'));
  const real = problems.filter((p) => !p.startsWith('planted_real_time.test.ts'));
  if (real.length > 0)
    throw new Error(`recipes: docs/testing.md's recipes as a vitest suite:\n${real.join('\n')}`);
  if (planted.length === 0 || planted.some((p) => !/ms, not under/.test(p)))
    throw new Error(
      `recipes: the control (the clock recipe on a real-time clock) was not reported slow: ${JSON.stringify(planted)}`,
    );
  const ms = durations({ testResults: report.testResults.filter((f) => !f.name.includes('planted')) });
  console.log(
    `recipes: ${blocks.length} vitest recipes of docs/testing.md (msw installed) ran from the packed package, ${ms.length} tests, the slowest ${Math.max(...ms)} ms (limit ${RECIPE_LIMIT_MS} ms); the control on a real-time clock was slow (${planted[0]})`,
  );
}
