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
  it('loads no HTTP client: only zod, node:buffer and node:crypto, and no client, transport or mock module', () => {
    const { files, packages } = runtimeGraph(resolve(root, 'src/webhooks/index.ts'));
    expect([...packages].sort()).toEqual(['node:buffer', 'node:crypto', 'zod']);
    const reached = [...files].map((f) => relative(root, f)).sort();
    for (const file of reached) {
      expect(file).toMatch(
        /^src\/(webhooks\/|schemas\/|core\/(errors|base-error|local-errors)\.ts$|internal\/(redact|issues|request-id)\.ts$)/,
      );
    }
    expect(reached).not.toContain('src/client.ts');
  });

  it('exports what api.md section 6 and the docs name', () => {
    for (const name of [
      'verifyWebhook',
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
