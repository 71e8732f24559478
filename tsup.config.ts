import { resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const external = ['msw', 'msw/node', 'undici', 'zod'];

// The build for runtimes other than Node.js: default-transport.ts (undici on Node) becomes
// default-transport.web.ts (the global fetch), so that nothing in it names undici; the compiled
// checks' fast paths (src/schemas/compiled/*.fast.ts) become none (*.fast.web.ts), and the order
// keys' synchronous SHA-1 (src/core/call/order-key.fast.ts) becomes Web Crypto's, so that a Worker
// bundles less (the full checks run, with the same outcome; the same UUIDs).
const webTransport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'web-default-transport',
  setup(build) {
    build.onResolve({ filter: /\/default-transport\.js$|\.fast\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\.js$/, '.web.ts')),
    }));
  },
};

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      webhooks: 'src/webhooks/index.ts',
      testing: 'src/testing/index.ts',
      stores: 'src/stores/index.ts',
    },
    format: ['esm', 'cjs'],
    // Declarations tagged @internal (the intent runner's hooks on a call's spec, the memory store's
    // synchronous fast path) are the SDK's own: left out of the shipped types, so partners neither
    // see nor reach for them. scripts/api-report.mjs (`npm run check:api`) fails if one ships.
    dts: { compilerOptions: { stripInternal: true } },
    // No source maps in the package: dist is unminified (stack traces already name readable lines),
    // and the maps, with the sources inlined, were 62% of what it unpacked to (docs/benchmarks.md).
    sourcemap: false,
    clean: true,
    target: 'node20',
    platform: 'node',
    // Keep `node:` on built-ins: Workers with nodejs_compat and Deno resolve them by that name.
    removeNodeProtocol: false,
    splitting: true,
    treeshake: true,
    // import.meta.url in the CommonJS build: the msw adapter resolves msw from the package's place.
    shims: true,
    external,
  },
  {
    // The `workerd`, `edge-light`, `deno`, `bun`, `worker` and `browser` conditions: both entries
    // built together, so that they share one copy of the error classes, as the Node.js build does.
    entry: { 'index.web': 'src/index.ts', 'webhooks.web': 'src/webhooks/index.ts' },
    format: ['esm'],
    sourcemap: false,
    target: 'es2022',
    platform: 'neutral',
    removeNodeProtocol: false,
    splitting: true,
    treeshake: true,
    external: [...external, /^node:/],
    esbuildPlugins: [webTransport],
  },
  {
    // The two bins: the mock (partner-payments-mock) and the partner's CLI (partner-payments).
    entry: { 'cli/mock': 'src/cli/mock/bin.ts', 'cli/partner-payments': 'src/cli/partner/bin.ts' },
    format: ['esm'],
    sourcemap: false,
    target: 'node20',
    platform: 'node',
    removeNodeProtocol: false,
    banner: { js: '#!/usr/bin/env node' },
    // `mcp` only, loaded on demand: the optional peer @modelcontextprotocol/sdk, and the engine
    // client of --intent-store (the partner's redis or pg).
    external: [...external, /^@modelcontextprotocol\/sdk(\/.*)?$/, 'redis', 'pg'],
    // Its chunk (the mcp room) beside the bins, apart from the entries' chunks.
    esbuildOptions(options) {
      options.chunkNames = 'cli/[name]-[hash]';
    },
  },
]);
