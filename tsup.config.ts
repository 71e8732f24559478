import { defineConfig } from 'tsup';

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
    splitting: true,
    treeshake: true,
    // import.meta.url in the CommonJS build: the msw adapter resolves msw from the package's place.
    shims: true,
    // jose is ESM-only: bundle it so the CommonJS build needs no require(esm).
    noExternal: ['jose'],
    external: ['msw', 'msw/node', 'undici', 'zod', 'eventemitter3'],
  },
  {
    entry: { 'cli/mock': 'src/cli/mock.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    noExternal: ['jose'],
    external: ['msw', 'msw/node', 'undici', 'zod', 'eventemitter3'],
  },
]);
