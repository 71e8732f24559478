// How deployment tools bundle for each runtime, shared by the ecosystem suite and the benchmarks.
import { builtinModules } from 'node:module';

/**
 * esbuild options as wrangler bundles a module worker: the workerd/worker/browser conditions; with
 * nodejs_compat the Node.js built-ins (`node:x` or bare `x`) are left to the runtime, without it
 * importing one fails the build.
 */
export const workerdBuild = (nodeCompat) => ({
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  external: nodeCompat ? ['node:*', ...builtinModules] : [],
});

/** esbuild options as Next.js bundles an edge route: the edge-light/worker/browser conditions, no node:*. */
export const edgeLightBuild = () => ({
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  conditions: ['edge-light', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
});
