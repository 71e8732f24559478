/** The Cloudflare Worker example as esbuild bundles it: small, and free of zod and node: imports. */
import { describe, expect, it } from 'vitest';
import { bundleWorker } from './worker-harness.js';

describe('examples/webhooks/worker.ts bundled for workerd', () => {
  it('is under 10 KB gzipped and holds no zod, no HTTP client and no node: import', async () => {
    const { code, gzipBytes, inputs } = await bundleWorker();
    expect(gzipBytes).toBeLessThan(10 * 1024);
    expect(inputs.filter((file) => file.includes('node_modules'))).toEqual([]);
    expect(inputs).not.toContain('src/schemas/events.ts');
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
    console.info(`worker bundle: ${code.length} bytes minified, ${gzipBytes} bytes gzipped`);
  });
});
