import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const external = ['msw', 'msw/node', 'undici', 'zod', 'eventemitter3'];

// The build for runtimes other than Node.js: default-transport.ts (undici on Node) becomes
// default-transport.web.ts (the global fetch), so that nothing in it names undici; the compiled
// checks' fast paths (src/schemas/compiled/*.fast.ts) become none (*.fast.web.ts), so that a Worker
// bundles less (the full checks run, with the same outcome).
const webTransport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'web-default-transport',
  setup(build) {
    build.onResolve({ filter: /\/default-transport\.js$|\.fast\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\.js$/, '.web.ts')),
    }));
  },
};

// tsup 8.5's tree-shaking pass (`treeshake: true`) hands each chunk to rollup, whose output already
// ends with `//# sourceMappingURL=<file>.map`, and then appends that comment itself: every .js and
// .cjs file ended with it twice (scripts/check-package-output.mjs checks). Keep the last one; the
// lines above it, and so the map, are unchanged.
const oneSourceMapComment: NonNullable<Options['plugins']>[number] = {
  name: 'one-source-map-comment',
  async buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!/\.c?js$/.test(name)) continue;
      const lines = (await readFile(name, 'utf8')).split('\n');
      const comments = lines.flatMap((line, i) => (line.startsWith('//# sourceMappingURL=') ? [i] : []));
      if (comments.length < 2) continue;
      const drop = new Set(comments.slice(0, -1));
      await writeFile(name, lines.filter((_, i) => !drop.has(i)).join('\n'));
    }
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
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    // Keep `node:` on built-ins: Workers with nodejs_compat and Deno resolve them by that name.
    removeNodeProtocol: false,
    splitting: true,
    treeshake: true,
    plugins: [oneSourceMapComment],
    // import.meta.url in the CommonJS build: the msw adapter resolves msw from the package's place.
    shims: true,
    external,
  },
  {
    // The `workerd`, `edge-light`, `deno`, `bun`, `worker` and `browser` conditions: both entries
    // built together, so that they share one copy of the error classes, as the Node.js build does.
    entry: { 'index.web': 'src/index.ts', 'webhooks.web': 'src/webhooks/index.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    platform: 'neutral',
    removeNodeProtocol: false,
    splitting: true,
    treeshake: true,
    plugins: [oneSourceMapComment],
    external: [...external, /^node:/],
    esbuildPlugins: [webTransport],
  },
  {
    // The two bins: the mock (partner-payments-mock) and the partner's CLI (partner-payments).
    entry: { 'cli/mock': 'src/cli/mock/bin.ts', 'cli/partner-payments': 'src/cli/partner/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    removeNodeProtocol: false,
    banner: { js: '#!/usr/bin/env node' },
    external,
  },
]);
