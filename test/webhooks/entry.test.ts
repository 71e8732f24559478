import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/webhooks/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every module the entry loads at run time: relative files it reaches, and bare package specifiers. */
function runtimeGraph(file: string, files = new Set<string>(), packages = new Set<string>()) {
  if (files.has(file)) return { files, packages };
  files.add(file);
  const source = readFileSync(file, 'utf8');
  // `import type` / `export type` are erased: only value imports load anything.
  for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.'))
      runtimeGraph(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), files, packages);
    else packages.add(spec);
  }
  return { files, packages };
}

describe('the partner-payments/webhooks entry', () => {
  it('loads no package and no node: module at import: no zod, no HTTP client, no node:crypto', () => {
    const { files, packages } = runtimeGraph(resolve(root, 'src/webhooks/index.ts'));
    // node:crypto and node:buffer are looked up on first use (process.getBuiltinModule), so the entry
    // imports on Workers without nodejs_compat; zod stays behind the type-only imports.
    expect([...packages].sort()).toEqual([]);
    const reached = [...files].map((f) => relative(root, f)).sort();
    for (const file of reached) {
      expect(file).toMatch(
        /^src\/(webhooks\/|schemas\/event-envelope\.ts$|core\/errors\/(api-errors|base-error|call-error|local-errors)\.ts$|core\/stores\/dedupe-store\.ts$|internal\/(redact|issues|request-id|uuid|format)\.ts$)/,
      );
      expect(readFileSync(resolve(root, file), 'utf8')).not.toMatch(/from 'zod'/);
    }
    expect(reached).toContain('src/webhooks/envelope.ts');
    expect(reached).not.toContain('src/schemas/events.ts');
    expect(reached).not.toContain('src/client.ts');
  });

  it('the graph walk can fail: the zod schema file and the main entry load packages', () => {
    expect(runtimeGraph(resolve(root, 'src/schemas/zod/events.ts')).packages).toContain('zod');
    expect(runtimeGraph(resolve(root, 'src/index.ts')).packages.size).toBeGreaterThan(0);
  });

  it('exports what api.md sections 6 and 13 and the docs name', () => {
    for (const name of [
      'createWebhookHandler',
      'verifyWebhook',
      'verifyWebhookAsync',
      'verifyWebhookRequest',
      'signWebhookPayload',
      'webhookSignatureHeader',
      'createDeduplicator',
      'MemoryDedupeStore',
      'WebhookVerificationError',
      'PaymentsError',
      'EVENT_KINDS',
      'SIGNATURE_HEADER',
    ]) {
      expect(entry).toHaveProperty(name);
    }
    expect(entry.SIGNATURE_HEADER).toBe('x-service-signature');
    expect(entry.EVENT_KINDS).toContain('payment.approved');
  });
});
