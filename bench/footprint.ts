/**
 * What importing the package costs: cold-start wall time of a fresh `node` that imports an entry
 * (against bare `node -e 0`), and the size of each entry bundled with its dependencies.
 */
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median } from './stats.js';

const ROOT = new URL('..', import.meta.url).pathname;

export const ENTRIES = ['partner-payments', 'partner-payments/webhooks', 'partner-payments/testing'] as const;

export interface ColdStart {
  what: string;
  /** Median wall time in milliseconds. */
  medianMs: number;
  /** The median minus bare `node -e 0`. */
  overheadMs: number;
}

function wallMs(script: string): number {
  const t0 = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (run.status !== 0) throw new Error(`node -e "${script}" failed: ${run.stderr.toString()}`);
  return ms;
}

/** Median wall time of each script over `runs` runs, run in rotation. */
export function coldStarts(runs: number): ColdStart[] {
  const scripts: [string, string][] = [
    ['`node -e 0`', '0'],
    ...ENTRIES.filter((e) => !e.endsWith('testing')).map((e): [string, string] => [
      `\`import('${e}')\``,
      `import('${e}')`,
    ]),
    // For reference: the share of the schema library every entry loads.
    ["`import('zod')` (dependency, for reference)", "import('zod')"],
  ];
  const times = scripts.map(() => [] as number[]);
  for (const [, script] of scripts) wallMs(script);
  for (let round = 0; round < runs; round++) {
    for (const [i, [, script]] of scripts.entries()) times[i]!.push(wallMs(script));
  }
  const base = median(times[0]!);
  return scripts.map(([what], i) => ({
    what,
    medianMs: median(times[i]!),
    overheadMs: median(times[i]!) - base,
  }));
}

export interface BundleSize {
  entry: string;
  minified: number;
  gzipped: number;
  /** The npm packages the bundle pulls in. */
  packages: string[];
}

/** Bundles every export of `entry` (no tree-shaking of unused exports) for Node, minified. */
export async function bundleSize(entry: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: `export * from '${entry}';`, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // msw is an optional peer dependency of the testing entry, installed by whoever uses it.
    external: ['msw', 'msw/*'],
  });
  const code = result.outputFiles[0]!.contents;
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    if (match) packages.add(match[1]!);
  }
  return {
    entry,
    minified: code.byteLength,
    gzipped: gzipSync(code).byteLength,
    packages: [...packages].sort(),
  };
}

/** Bundle sizes of every entry; throws when the webhooks entry pulls in undici (it must not). */
export async function bundleSizes(): Promise<BundleSize[]> {
  const sizes = await Promise.all(ENTRIES.map(bundleSize));
  const webhooks = sizes.find((s) => s.entry === 'partner-payments/webhooks')!;
  if (webhooks.packages.includes('undici')) {
    throw new Error(`partner-payments/webhooks bundles undici (packages: ${webhooks.packages.join(', ')})`);
  }
  return sizes;
}
