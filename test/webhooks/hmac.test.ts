/**
 * The synchronous path's HMAC-SHA256 (src/webhooks/hmac.ts, two one-shot digests over cached key
 * pads) against node:crypto's own createHmac, over generated bodies and secrets: short, exactly one
 * block, longer than a block (hashed first), non-ASCII and lone surrogates.
 */

import * as nodeBuffer from 'node:buffer';
import * as nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../../src/webhooks/hmac.js';
import type { NodeApis } from '../../src/webhooks/runtime.js';

const apis: NodeApis = { crypto: nodeCrypto, buffer: nodeBuffer };
const reference = (body: string | Uint8Array, secret: string) =>
  nodeCrypto.createHmac('sha256', secret).update(body).digest('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

const secretArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 100 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
  fc.constantFrom('k'.repeat(64), 'k'.repeat(65), 'é'.repeat(32), 'é'.repeat(33), '\uD800'),
);
const bodyArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.uint8Array({ maxLength: 3000 }),
  fc.uint8Array({ minLength: 4000, maxLength: 5000 }),
  fc.constant(''),
);

describe('hmacSha256', () => {
  it('gives the digest of createHmac for any body and secret', () => {
    fc.assert(
      fc.property(bodyArb, secretArb, (body, secret) => {
        expect(hex(hmacSha256(apis, body, secret))).toBe(reference(body, secret));
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the same digest twice in a row, and between secrets (the cached pads and scratch)', () => {
    const body = Buffer.from('{"v":1}');
    const first = hex(hmacSha256(apis, body, 'whsec_a'));
    expect(hex(hmacSha256(apis, body, 'whsec_b'))).toBe(reference(body, 'whsec_b'));
    expect(hex(hmacSha256(apis, body, 'whsec_a'))).toBe(first);
    // More secrets than the cache holds: evicted pads are derived again.
    for (let i = 0; i < 20; i++) expect(hex(hmacSha256(apis, body, `s${i}`))).toBe(reference(body, `s${i}`));
  });

  it('falls back to createHmac where node:crypto has no one-shot hash', () => {
    const { hash: _hash, ...withoutHash } = nodeCrypto as typeof nodeCrypto & { hash?: unknown };
    const older = { crypto: withoutHash as typeof nodeCrypto, buffer: nodeBuffer };
    expect(hex(hmacSha256(older, 'body', 'secret'))).toBe(reference('body', 'secret'));
  });
});
