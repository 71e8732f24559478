// The order-key namespace is a published constant: another language derives an order's
// `Idempotency-Key` from docs/idempotency.md, so the value the SDK uses (ORDER_KEY_NAMESPACE) must be
// the one the doc prints, in its definition and in its Python example. A changed digit on either
// side names a different order for every string key.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ORDER_KEY_NAMESPACE } from '../../src/index.js';

const doc = readFileSync(new URL('../../docs/idempotency.md', import.meta.url), 'utf8');
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** Every UUID of the doc's text that `pattern` (with `UUID` in it) captures. */
const published = (pattern: string) => [...doc.matchAll(new RegExp(pattern, 'g'))].map((m) => m[1]);

describe('ORDER_KEY_NAMESPACE', () => {
  it('is the value docs/idempotency.md publishes', () => {
    const defined = published(`ORDER_KEY_NAMESPACE = (${UUID})`);
    expect(defined).toHaveLength(1);
    expect(ORDER_KEY_NAMESPACE).toBe(defined[0]);
  });

  it("is the namespace of the doc's Python example", () => {
    const example = published(`uuid\\.uuid5\\(uuid\\.UUID\\('(${UUID})'\\)`);
    expect(example.length).toBeGreaterThan(0);
    for (const value of example) expect(value).toBe(ORDER_KEY_NAMESPACE);
  });
});
