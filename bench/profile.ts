/**
 * Profiles one workload (bench/profile-target.ts, after a warm-up) and prints the self time by
 * where it lives (the SDK's dist, zod, undici, node internals) and the functions with the most.
 *
 *   npx tsx bench/profile.ts get|get-traced|get-raw|create|pay|webhook-1k|webhook-16k [top=25]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { selfTimes } from './cpu-profile.js';

const ROOT = new URL('..', import.meta.url).pathname;
const figure = process.argv[2] ?? 'get';
const top = Number(process.argv[3] ?? 25);
const dir = join(ROOT, '.tmp', 'prof');
mkdirSync(dir, { recursive: true });
const file = join(dir, `${figure}.cpuprofile`);
execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'profile-target.ts'), figure, file], {
  cwd: ROOT,
  stdio: 'inherit',
});
function where(url: string): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.includes('/dist/')) return 'sdk';
  if (url.startsWith('node:') || url === '') return 'node';
  return url.replace(`file://${ROOT}`, '');
}

const { total, byFunction: self, byArea } = selfTimes(file, where);
const pct = (us: number) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
const idle = byArea.get('node') === undefined ? 0 : (self.get('(idle) [node]') ?? 0);
console.log(
  `\n${figure}: ${(total / 1e6).toFixed(2)} s sampled, ${((total - idle) / 1e6).toFixed(2)} s busy; self time by area:`,
);
for (const [area, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 10))
  console.log(`${pct(us)}  ${area}`);
console.log(`\ntop ${top} functions by self time:`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${pct(us)}  ${key}`);
