// Reads a V8 CPU profile (`--cpu-prof`, or the inspector's Profiler) into self time per function and
// per area: what bench/profile.ts and bench/mock-profile.ts print.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time in µs: by function (`name [where:line]`), by where it lives, and the total sampled. */
export interface SelfTimes {
  total: number;
  byFunction: Map<string, number>;
  byArea: Map<string, number>;
}

/**
 * The self time of the profile in `file`; `where(url)` names a frame's area (a package, the SDK, a
 * file), and a frame without a URL (native, idle, GC) is `where('')` without a line.
 */
export function selfTimes(file: string, where: (url: string) => string): SelfTimes {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byNode.get(id)!.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const area = where(frame.url);
    const key = `${frame.functionName || '(anonymous)'} [${area}${frame.url ? `:${frame.lineNumber + 1}` : ''}]`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  });
  return { total, byFunction, byArea };
}
