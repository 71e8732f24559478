/**
 * Runs examples/webhooks/worker.ts in workerd (miniflare), bundled by esbuild as wrangler would, with
 * or without `nodejs_compat`; its EVENTS service binding calls back into the test.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { Miniflare, type Request as WorkerRequest, Response as WorkerResponse } from 'miniflare';
import { WEBHOOK_PATH } from '../../examples/webhooks/shared.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import type { ReceiverSetup, RunningReceiver } from './receivers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The worker bundle, minified, with `partner-payments/webhooks` taken from the sources. */
export async function bundleWorker(): Promise<{ code: string; gzipBytes: number; inputs: string[] }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['examples/webhooks/worker.ts'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker'],
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    alias: { 'partner-payments/webhooks': './src/webhooks/index.ts' },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { code, gzipBytes: gzipSync(code).length, inputs: Object.keys(result.metafile.inputs) };
}

let bundled: ReturnType<typeof bundleWorker> | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startWorker(
  setup: ReceiverSetup,
  { nodejsCompat }: { nodejsCompat: boolean },
): Promise<RunningReceiver> {
  bundled ??= bundleWorker();
  const { code } = await bundled;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2025-09-01',
    compatibilityFlags: nodejsCompat ? ['nodejs_compat'] : [],
    bindings: { PAYMENTS_WEBHOOK_SECRET: setup.register(url) },
    serviceBindings: {
      async EVENTS(request: WorkerRequest) {
        try {
          await setup.onEvent((await request.json()) as WebhookEvent);
          return new WorkerResponse(null, { status: 204 });
        } catch {
          return new WorkerResponse(null, { status: 503 });
        }
      },
    },
    host: '127.0.0.1',
    port,
  });
  await mf.ready;
  return { url, close: () => mf.dispose() };
}
