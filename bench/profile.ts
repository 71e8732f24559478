/**
 * Profiles one workload (bench/profile-target.ts, after a warm-up) and prints the self time by
 * where it lives (the SDK's dist, zod, undici, node internals) and the functions with the most.
 *
 *   npx tsx bench/profile.ts get|get-traced|get-raw|create|pay|webhook-1k|webhook-16k [top=25]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

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
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

function where(url: string): string {
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.includes('/dist/')) return 'sdk';
  if (url.startsWith('node:') || url === '') return 'node';
  return url.replace(`file://${ROOT}`, '');
}

const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const byArea = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byNode.get(id)!.callFrame;
  const us = profile.timeDeltas[i] ?? 0;
  total += us;
  const area = where(frame.url);
  const key = `${frame.functionName || '(anonymous)'} [${area}${frame.url ? `:${frame.lineNumber + 1}` : ''}]`;
  self.set(key, (self.get(key) ?? 0) + us);
  byArea.set(area, (byArea.get(area) ?? 0) + us);
});
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
