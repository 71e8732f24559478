/**
 * What importing the package costs: cold-start wall time of a fresh `node` that imports an entry
 * (against bare `node -e 0`, beside stripe's SDK), the size of each entry bundled with its
 * dependencies for Node, and the size of small Workers bundled as wrangler would.
 */
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { workerdBuild } from '../scripts/ecosystem/targets.mjs';
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
    // The testing entry too: partners' test suites import it in every test worker.
    ...ENTRIES.map((e): [string, string] => [`\`import('${e}')\``, `import('${e}')`]),
    // The comparison: another payments SDK, whole.
    ["`import('stripe')` (comparison)", "import('stripe')"],
    // For reference: the share of the schema library the main entry loads.
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

/** A cold-import goal: an entry's cost over bare node, as a share of stripe's, measured in one run. */
export interface ColdStartGoal {
  entry: string;
  ratio: number;
  goal: number;
}

/**
 * The cold-import goals: the main entry at most half of stripe's cost, the webhooks entry at most
 * 0.15 of it. The testing entry is reported beside them, with no goal.
 */
export function coldStartGoals(starts: ColdStart[]): ColdStartGoal[] {
  const cost = (needle: string) => starts.find((s) => s.what.includes(needle))!.overheadMs;
  const stripe = cost("'stripe'");
  return [
    { entry: 'partner-payments', ratio: cost("'partner-payments'") / stripe, goal: 0.5 },
    { entry: 'partner-payments/webhooks', ratio: cost("'partner-payments/webhooks'") / stripe, goal: 0.15 },
    { entry: 'partner-payments/testing', ratio: cost("'partner-payments/testing'") / stripe, goal: 0 },
  ];
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
    // Not tsconfig.json's paths (which map the package to src/): the built package, as partners get it.
    tsconfigRaw: '{}',
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

/** A small worker bundled for Cloudflare Workers, and its size. */
export interface WorkerBundle {
  what: string;
  gzipped: number;
  minified: number;
  /** The goal for the SDK's workers, gzipped: at most `atMost` bytes (or under `under`), and smaller
   * than the worker named `smallerThan` measured in the same run. */
  goal?: { atMost?: number; under?: number; smallerThan?: string };
  /** Whether it also bundles without `nodejs_compat` (no Node.js built-in imported). */
  withoutNodeCompat: boolean;
}

// As wrangler bundles a module worker. `nodeCompat` leaves Node.js built-ins to the runtime.
async function workerBuild(contents: string, nodeCompat: boolean) {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    ...workerdBuild(nodeCompat),
    write: false,
    logLevel: 'silent',
    // Not tsconfig.json's paths (which map the package to src/): the built package, as partners get it.
    tsconfigRaw: '{}',
  });
  return result.outputFiles[0]!.contents;
}

async function workerBundle(
  what: string,
  contents: string,
  goal?: WorkerBundle['goal'],
): Promise<WorkerBundle> {
  const code = await workerBuild(contents, true);
  const withoutNodeCompat = await workerBuild(contents, false).then(
    () => true,
    () => false,
  );
  return {
    what,
    minified: code.byteLength,
    gzipped: gzipSync(code).byteLength,
    goal,
    withoutNodeCompat,
  };
}

/** Whether a worker met its goal, against the others of the same run. */
export function workerMet(w: WorkerBundle, all: readonly WorkerBundle[]): boolean | undefined {
  if (!w.goal) return undefined;
  const { atMost, under, smallerThan } = w.goal;
  const other = smallerThan ? all.find((o) => o.what === smallerThan) : undefined;
  return (
    (atMost === undefined || w.gzipped <= atMost) &&
    (under === undefined || w.gzipped < under) &&
    (other === undefined || w.gzipped < other.gzipped)
  );
}

const STRIPE_CREATE = 'stripe: `new Stripe()` + `paymentIntents.create` (comparison)';

/** Workers that create a client and create an order, or only verify webhooks; stripe's alike. */
export async function workerBundles(): Promise<WorkerBundle[]> {
  const hooks = await import('partner-payments/webhooks');
  const verify = 'verifyWebhookAsync' in hooks ? 'verifyWebhookAsync' : 'verifyWebhook';
  return [
    await workerBundle(
      '`new PaymentsClient()` + `orders.create`',
      `import { PaymentsClient } from 'partner-payments';
      export default { async fetch(req, env) {
        const client = new PaymentsClient({ clientId: env.ID, clientSecret: env.SECRET, baseUrl: env.BASE });
        return Response.json(await client.orders.create({ location_id: env.LOCATION, total_cents: 100 }));
      } };`,
      { atMost: 25 * 1024, smallerThan: STRIPE_CREATE },
    ),
    await workerBundle(
      `\`${verify}\` only (\`partner-payments/webhooks\`)`,
      `import { ${verify} } from 'partner-payments/webhooks';
      export default { async fetch(req, env) {
        const event = await ${verify}(await req.text(), req.headers.get('x-service-signature'), env.SECRET);
        return new Response(event.event_id);
      } };`,
      { under: 5 * 1024 },
    ),
    await workerBundle(
      STRIPE_CREATE,
      `import Stripe from 'stripe';
      export default { async fetch(req, env) {
        const stripe = new Stripe(env.KEY, { httpClient: Stripe.createFetchHttpClient() });
        return Response.json(await stripe.paymentIntents.create({ amount: 100, currency: 'usd' }));
      } };`,
    ),
    await workerBundle(
      'stripe: `webhooks.constructEventAsync` only (comparison)',
      `import Stripe from 'stripe';
      export default { async fetch(req, env) {
        const stripe = new Stripe(env.KEY, { httpClient: Stripe.createFetchHttpClient() });
        const event = await stripe.webhooks.constructEventAsync(await req.text(),
          req.headers.get('stripe-signature'), env.SECRET, undefined, Stripe.createSubtleCryptoProvider());
        return new Response(event.id);
      } };`,
    ),
  ];
}
