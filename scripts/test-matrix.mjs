// Runs the vitest suite on each supported Node.js line, one after the other, and fails when any
// fails. The running Node serves its own line; the others are installed as npm packages into
// .tmp/runtimes (no system install; the same copies the ecosystem suite uses). `npm test` runs it.
// Usage: npm run test:matrix [-- [--lean] 20 22 24 26]
//   --lean: the lines other than the running one skip the files whose outcome does not depend on
//   the Node.js line or that take longest (LEAN_SKIP), and the type tests (tsc's verdict is the same
//   on every line), when the time of `npm test` demands it. Their files share their fork's modules
//   (`--no-isolate`), but those that replace a module or a global, and skip the check of each
//   exchange against the mock's OpenAPI document (test/openapi/setup.ts), which the running line makes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, relative } from 'node:path';
import { nodeBinary, root } from './pack.mjs';

/** The Node.js lines the package supports (README, "Support policy"). */
const LINES = ['20', '22', '24', '26'];
const args = process.argv.slice(2);
const lean = args.includes('--lean');
const majors = args.filter((a) => a !== '--lean').length ? args.filter((a) => a !== '--lean') : LINES;
// The import graph (static, the same on every line), the chaos run, the fleets (real Redis and
// PostgreSQL, no Node-line behaviour of their own) and the fault soak (minutes of
// load; they run in full on the running line). Also the longest files whose outcome is the CLI's
// and the MCP server's own logic over child processes (verify's contract suite and its planted
// deviations, the MCP server restarted on its state folder, its rules for agents that pay) and the
// file stores run by Bun and Deno: the client and the file stores themselves run on every line in
// their own tests. And the files whose work is the same JavaScript on any line and takes long: the
// compiled checks against zod's verdicts, the mock bin's command line and its served documents, the
// fault table, the intents' memory footprint (a figure of the running line's V8, kept on it).
const LEAN_SKIP = [
  // The command lines (doctor, verify, mcp), the mock's product (its bin, control API, dashboard),
  // the OpenAPI document and the docs' texts: the same JavaScript on any line, over child processes
  // or none; the client they drive runs on every line in its own tests.
  'test/cli/**',
  'test/mcp/**',
  'test/mock-product/**',
  'test/openapi/*.test.ts',
  'test/docs/**',
  'test/schemas/**',
  'test/testing/bin.test.ts',
  'test/testing/documents.test.ts',
  'test/faults/fault-table.test.ts',
  'test/intents/footprint.test.ts',
  'test/house/**',
  'test/chaos/**',
  'test/fleets/**',
  'test/faults/soak.test.ts',
  'test/stores/file-stores-runtimes.test.ts',
];
const results = [];
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const reports = join(root, '.tmp', 'runtimes');
mkdirSync(reports, { recursive: true });

/**
 * The test files that replace a module or a global (`vi.mock`, `vi.stubGlobal`, ...): on a lean line
 * they run in a fork of their own each (vitest's default isolation), the others share their fork's
 * modules (`--no-isolate`), which took a lean line from 103 s to 40 s (importing the sources again
 * for every file was most of it). The running line isolates every file.
 */
function replacingFiles() {
  const files = readdirSync(join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(root, 'test', f));
  const replaces = /\bvi\.(mock|doMock|unmock|hoisted|resetModules|stubGlobal|stubEnv)\b/;
  return files.filter((f) => replaces.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
}

// " (412 of 412 tests passed in 61 files)", from vitest's JSON reports, when they were written.
function counts(files) {
  const rs = files.filter((f) => existsSync(f)).map((f) => JSON.parse(readFileSync(f, 'utf8')));
  if (rs.length === 0) return '';
  const sum = (pick) => rs.reduce((n, r) => n + pick(r), 0);
  return ` (${sum((r) => r.numPassedTests)} of ${sum((r) => r.numTotalTests)} tests passed in ${sum((r) => r.testResults.length)} files)`;
}

/** Found once, for every lean line. */
const replacing = lean ? replacingFiles() : [];

for (const major of majors) {
  const own = major === process.versions.node.split('.')[0];
  const bin = own ? process.execPath : nodeBinary(major);
  const leanLine = lean && !own;
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `\n=== Node ${version}${leanLine ? ` (without ${LEAN_SKIP.join(', ')} or the type tests; files share their fork's modules, but those that replace one)` : ''} ===`,
  );
  // A lean line: the files that replace a module or a global run isolated, the rest share modules.
  // The exchanges' check against the mock's OpenAPI document (test/openapi/setup.ts) runs on the
  // running line only: the same exchanges, document and JavaScript on every line.
  const isolated = leanLine ? replacing : [];
  const skip = LEAN_SKIP.flatMap((glob) => ['--exclude', glob]);
  const runs = leanLine
    ? [
        [...skip, ...isolated.flatMap((f) => ['--exclude', f]), '--typecheck.enabled=false', '--no-isolate'],
        [...skip, '--typecheck.enabled=false', ...isolated],
      ]
    : [[]];
  const started = performance.now();
  let outcome = 'passed';
  const files = [];
  for (const [i, run] of runs.entries()) {
    const report = join(reports, `vitest-report-node${major}${i ? `-${i}` : ''}.json`);
    rmSync(report, { force: true });
    files.push(report);
    try {
      // The version under test first on PATH, so a test that spawns `node` gets it too.
      const PATH = `${dirname(bin)}${delimiter}${process.env.PATH ?? ''}`;
      execFileSync(
        bin,
        [vitest, 'run', ...run, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
        {
          cwd: root,
          stdio: 'inherit',
          env: { ...process.env, PATH, ...(leanLine ? { PARTNER_PAYMENTS_OPENAPI_CHECK: 'off' } : {}) },
        },
      );
    } catch {
      outcome = 'FAILED';
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  results.push(`${version}: ${outcome}${counts(files)} in ${seconds} s${leanLine ? ' (lean)' : ''}`);
}
console.log(`\n${results.join('\n')}`);
if (results.some((r) => r.includes(': FAILED'))) process.exit(1);
