// A call's idempotency key, checked before anything is sent: the one rule for every key the SDK
// takes (an order's, which the core sends as a header, and a payment's or refund's, which the intent
// layer keeps and never sends).
import { RequestValidationError } from '../errors/local-errors.js';

/** Any character: a key matches when it is not empty. */
const NOT_EMPTY = /./s;

/**
 * The idempotency key of a call, refused before anything is sent unless it is 1 to 255 characters.
 * The key comes back flat: V8 keeps a string built by concatenation (`crypto.randomUUID()` builds
 * its 36 characters from 20 pieces on Node 20, 22 and 26; a template key is built from its parts)
 * as a tree of its pieces until something reads it whole, and a RegExp reads its subject whole: the
 * emptiness test flattens the key. An intent store keeps its keys for thousands of calls: a flat
 * UUID is one 56-byte string, its tree about 14 objects and 450 bytes, each copied and marked by the
 * collector (a heap snapshot of 20,000 kept intents; test/intents/footprint.test.ts). `charCodeAt`
 * flattens on Node 20 but not on 22, and a test whose result is unused is dropped by the bundler.
 */
export function checkKey(kind: string, key: unknown): string {
  if (typeof key === 'string' && key.length <= 255 && NOT_EMPTY.test(key)) return key;
  throw new RequestValidationError(kind, [
    { path: ['idempotencyKey'], message: 'must be a non-empty string of at most 255 characters' },
  ]);
}

/**
 * The idempotency key a call gives (`options.idempotencyKey`), checked before anything is sent;
 * undefined when it gives none (an order creation gets its UUID with its headers).
 */
export function keyOf(spec: {
  options?: { idempotencyKey?: unknown } | undefined;
  retry: string;
}): string | undefined {
  const given = spec.options?.idempotencyKey;
  return given === undefined ? undefined : checkKey(spec.retry === 'keyed' ? 'order' : 'request', given);
}
