// HMAC-SHA256 verification on Web Crypto, for runtimes without node:crypto.
import type { webcrypto } from 'node:crypto';
import { PaymentsError } from '../core/errors.js';
import { hexBytes, utf8Bytes } from './runtime.js';

// The Web Crypto types, named from @types/node (the DOM library is not in this project's lib).
type SubtleCrypto = webcrypto.SubtleCrypto;
type CryptoKey = webcrypto.CryptoKey;

/** Imported keys by secret, so that a receiver does not import its key on every delivery. */
const keys = new Map<string, Promise<CryptoKey>>();
/** A receiver has one secret, two during a rotation; a few more stay cached without growing unbounded. */
const MAX_KEYS = 8;

function subtleCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle) return subtle;
  throw new PaymentsError(
    'verifyWebhookAsync needs Web Crypto (globalThis.crypto.subtle), which this runtime does not have.',
  );
}

function keyFor(subtle: SubtleCrypto, secret: string): Promise<CryptoKey> {
  const cached = keys.get(secret);
  if (cached) return cached;
  const key = subtle.importKey('raw', utf8Bytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  // A failed import is not kept: the next delivery tries again.
  key.catch(() => keys.delete(secret));
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
  keys.set(secret, key);
  return key;
}

/**
 * Whether `hex` is the HMAC of `body` under one of `secrets`, with `crypto.subtle.verify`: the runtime
 * compares the digests in constant time, and every secret is checked (all awaited, no early exit) so
 * the time taken does not reveal which one matched. `body` must be the caller's private copy (the
 * bytes parsed afterwards), since the digests are computed while other code runs.
 */
export async function matchesAsync(
  body: Uint8Array,
  hex: string,
  secrets: readonly string[],
): Promise<boolean> {
  const subtle = subtleCrypto();
  const signature = hexBytes(hex);
  const results = await Promise.all(
    secrets.map(async (secret) => subtle.verify('HMAC', await keyFor(subtle, secret), signature, body)),
  );
  return results.includes(true);
}
