// Runs the test suite on Node 22 and 24, installed as npm packages into .tmp/runtimes (no system
// install; the same copies the ecosystem suite uses).
// Usage: npm run test:matrix [-- 22 24]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { nodeBinary, root } from './pack.mjs';

const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];
const results = [];
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

// " (412 of 412 tests passed in 61 files)", from vitest's JSON report, when it wrote one.
function counts(file) {
  if (!existsSync(file)) return '';
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return ` (${r.numPassedTests} of ${r.numTotalTests} tests passed in ${r.testResults.length} files)`;
}

for (const major of majors) {
  const bin = nodeBinary(major);
  const prefix = dirname(dirname(dirname(dirname(bin))));
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`\n=== Node ${version} ===`);
  const report = join(prefix, 'vitest-report.json');
  rmSync(report, { force: true });
  try {
    // The version under test first on PATH, so a test that spawns `node` gets it too.
    const PATH = `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}`;
    execFileSync(
      bin,
      [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      {
        cwd: root,
        stdio: 'inherit',
        env: { ...process.env, PATH },
      },
    );
    results.push(`${version}: passed${counts(report)}`);
  } catch {
    results.push(`${version}: FAILED${counts(report)}`);
  }
}
console.log(`\n${results.join('\n')}`);
if (results.some((r) => r.includes(': FAILED'))) process.exit(1);
