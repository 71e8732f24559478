// The runner's own errors: a key that is not one, a lease another call took over, a failing store.
import { PaymentsError } from '../errors/base-error.js';
import { CallError } from '../errors/call-error.js';
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
 * A call's idempotency key, checked before anything is sent: the caller's, or for a payment or
 * refund without one a new UUID (flattened by the same check). Undefined for any other call without
 * a key (an order creation gets its UUID with its headers).
 */
export function keyOf(spec: {
  options?: { idempotencyKey?: unknown } | undefined;
  intent?: { kind: string } | undefined;
  retry: string;
}): string | undefined {
  const given = spec.options?.idempotencyKey;
  const kind = spec.intent?.kind;
  if (given === undefined) return kind === undefined ? undefined : checkKey(kind, crypto.randomUUID());
  return checkKey(kind ?? (spec.retry === 'keyed' ? 'order' : 'request'), given);
}

/** The error of a call whose lease passed to another call: it sent nothing more. */
export function lostLease(kind: string, key: string): CallError {
  const error = new CallError(
    `Idempotency key '${key}' was taken over by another call (this call's lease ran out); this call sent nothing more. Call again with the same key to get the ${kind}.`,
  );
  error.idempotencyKey = key;
  return error;
}

/** A store's failure, as a PaymentsError saying nothing more was sent. */
export function storeFailure(error: unknown): never {
  if (error instanceof PaymentsError) throw error;
  throw new PaymentsError(
    `The intent store failed (${error instanceof Error ? error.message : String(error)}); nothing more was sent.`,
    { cause: error },
  );
}
