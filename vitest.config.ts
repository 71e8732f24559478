import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Examples and docs import the package by name; tests run them against the sources.
    alias: [
      { find: /^partner-payments\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^partner-payments\/testing$/, replacement: src('testing/index.ts') },
      { find: /^partner-payments\/stores$/, replacement: src('stores/index.ts') },
      { find: /^partner-payments$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Every exchange with a mock is validated against the mock's own OpenAPI document (test/openapi).
    setupFiles: ['test/openapi/setup.ts'],
    // Installs redis-server / PostgreSQL when missing (fresh machine, root); see test/fleets/engines.ts.
    globalSetup: ['test/fleets/global-setup.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one fork fewer than the cores: one on a 2-core machine, where the files
    // spend much of their time waiting on the children and servers they start. Two forks there took
    // the Node 20 run from 391 s to 258 s (all 112 files passing); `npm test` runs the suite 4 times.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    restoreMocks: true,
  },
});
