/**
 * What each layer weighs in the Workers bundle of bench/footprint.ts (a client and `orders.create`,
 * esbuild as wrangler bundles, minified, gzipped), built from the sources as the package's Workers
 * build is (the web transport): the whole, then the same with the exactly-once layer, the telemetry,
 * or both replaced by empty stand-ins. A single-file Worker holds every module the client class
 * reaches, whichever calls it makes, so this is what a layer costs every Worker.
 *
 *   npx tsx bench/worker-layers.ts
 */
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { workerdBuild } from '../scripts/ecosystem/targets.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const WORKER = `import { PaymentsClient } from './src/index.ts';
export default { async fetch(req, env) {
  const client = new PaymentsClient({ clientId: env.ID, clientSecret: env.SECRET, baseUrl: env.BASE });
  return Response.json(await client.orders.create({ location_id: env.LOCATION, total_cents: 100 }));
} };`;

/** Stand-ins with the same exports: each passes calls through and keeps nothing. */
const LAYERS: Record<string, Record<string, string>> = {
  'exactly-once': {
    'intents/runner.ts':
      'export class IntentRunner { constructor(c) { this.c = c; } once(s) { return this.c.send({ ...s, intent: undefined }); } }',
    'intents/recover.ts': 'export function recoverIntents() { return Promise.resolve([]); }',
    'core/stores/memory-intent-store.ts': 'export class MemoryIntentStore { async noteRefund() {} }',
  },
  telemetry: {
    'core/observe/metrics.ts': 'export class ClientMetrics { static EVENTS = new Set(); record() {} }',
    'core/call/trace.ts': 'export function callTracer() {}',
    'core/observe/tracing.ts': 'export function traceTarget() {}',
  },
};

function plugin(stubbed: readonly string[]): Plugin {
  const stubs = Object.assign({}, ...stubbed.map((layer) => LAYERS[layer]));
  return {
    name: 'workers-build',
    setup(b) {
      // The package's Workers build: the fetch transport, no Node-only fast paths (tsup.config.ts).
      b.onResolve({ filter: /\/default-transport\.js$|\.fast\.js$/ }, (a) => ({
        path: resolve(a.resolveDir, a.path.replace(/\.js$/, '.web.ts')),
      }));
      b.onLoad({ filter: /\.ts$/ }, (a) => {
        const file = Object.keys(stubs).find((f) => a.path.endsWith(`/src/${f}`));
        return file ? { contents: stubs[file], loader: 'ts' } : undefined;
      });
    },
  };
}

async function gzipped(stubbed: readonly string[]): Promise<number> {
  const result = await build({
    stdin: { contents: WORKER, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    minify: true,
    ...workerdBuild(true),
    write: false,
    logLevel: 'error',
    plugins: [plugin(stubbed)],
  });
  return gzipSync(result.outputFiles[0]!.contents).byteLength;
}

const whole = await gzipped([]);
const rows = [['the whole client', whole]] as [string, number][];
for (const stubbed of [['exactly-once'], ['telemetry'], ['exactly-once', 'telemetry']]) {
  rows.push([`without ${stubbed.join(' and ')}`, await gzipped(stubbed)]);
}
console.log('| Worker: a client and `orders.create` | Gzipped | The layers left out weigh |');
console.log('|---|---:|---:|');
for (const [what, bytes] of rows) {
  console.log(
    `| ${what} | ${bytes.toLocaleString('en-US')} B | ${(whole - bytes).toLocaleString('en-US')} B |`,
  );
}
