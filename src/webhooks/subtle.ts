// HMAC-SHA256 verification on Web Crypto, for runtimes without node:crypto.
import type { webcrypto } from 'node:crypto';
import { PaymentsError } from '../core/errors/api-errors.js';
import { hexBytes, utf8Bytes } from './runtime.js';

// The Web Crypto types, named from @types/node (the DOM library is not in this project's lib).
type SubtleCrypto = webcrypto.SubtleCrypto;
type CryptoKey = webcrypto.CryptoKey;

/**
 * Imported keys by secret (the key once imported, its import while under way), so that a receiver
 * does not import its key on every delivery. Module-private: neither the map nor a key is exposed, and
 * a key is imported non-extractable.
 */
const keys = new Map<string, CryptoKey | Promise<CryptoKey>>();
/** A receiver has one secret, two during a rotation; a few more stay cached without growing unbounded. */
const MAX_KEYS = 8;

function subtleCrypto(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle;
  if (subtle) return subtle;
  throw new PaymentsError(
    'verifyWebhookAsync needs Web Crypto (globalThis.crypto.subtle), which this runtime does not have.',
  );
}

function importKey(subtle: SubtleCrypto, secret: string): Promise<CryptoKey> {
  const key = subtle
    .importKey('raw', utf8Bytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
    .then(
      (imported) => {
        if (keys.get(secret) === key) keys.set(secret, imported);
        return imported;
      },
      (error: unknown) => {
        // A failed import is not kept: the next delivery tries again.
        if (keys.get(secret) === key) keys.delete(secret);
        throw error;
      },
    );
  if (keys.size >= MAX_KEYS) keys.delete(keys.keys().next().value!);
  keys.set(secret, key);
  return key;
}

/** The imported key of every secret when all are in the cache already (no promise, no tick), else undefined. */
function cachedKeys(secrets: readonly string[]): CryptoKey[] | undefined {
  const found: CryptoKey[] = [];
  for (const secret of secrets) {
    const key = keys.get(secret);
    if (key === undefined || key instanceof Promise) return undefined;
    found.push(key);
  }
  return found;
}

/** The HMAC keys of `secrets`, from the cache or imported (once per secret). */
export function hmacKeys(secrets: readonly string[]): CryptoKey[] | Promise<CryptoKey[]> {
  const cached = cachedKeys(secrets);
  if (cached) return cached;
  const subtle = subtleCrypto();
  return Promise.all(secrets.map((secret) => keys.get(secret) ?? importKey(subtle, secret)));
}

/**
 * Whether `hex` is the HMAC of `body` under one of `keys`, with `crypto.subtle.verify`: the runtime
 * compares the digests in constant time, and every key is checked (all awaited, no early exit) so the
 * time taken does not reveal which one matched. `subtle.verify` takes its copy of `body` when called
 * (Web Crypto: "a copy of the bytes held by the data parameter"), so the caller reads the bytes it
 * parses in the same turn, before awaiting the result.
 */
export function matchesAsync(body: Uint8Array, hex: string, keys: readonly CryptoKey[]): Promise<boolean> {
  const subtle = subtleCrypto();
  const signature = hexBytes(hex);
  if (keys.length === 1) return subtle.verify('HMAC', keys[0]!, signature, body);
  return Promise.all(keys.map((key) => subtle.verify('HMAC', key, signature, body))).then((results) =>
    results.includes(true),
  );
}
