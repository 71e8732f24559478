// Runs the test suite on Node 22 and 24, installed as npm packages into .tmp/ (no system install).
// Usage: npm run test:matrix [-- 22 24]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];

for (const major of majors) {
  const prefix = join(root, '.tmp', `node${major}`);
  const bin = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    console.log(`installing node@${major} into ${prefix}`);
    execFileSync(
      npm,
      ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `node@${major}`],
      { stdio: 'inherit' },
    );
  }
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`\n=== Node ${version} ===`);
  try {
    execFileSync(bin, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: root,
      stdio: 'inherit',
    });
    results.push(`${version}: passed`);
  } catch {
    results.push(`${version}: FAILED`);
  }
}
console.log(`\n${results.join('\n')}`);
if (results.some((r) => r.endsWith('FAILED'))) process.exit(1);
