// A call's outgoing headers: the client's, the call's own over them, the content type, and the
// `Idempotency-Key` of a call that sends one. The one place a call's key becomes a header: a
// payment's or refund's key never reaches here (the intent runner keeps it, and sends without it).

import { UUID_PATTERN } from '../../internal/uuid.js';
import type { CoreSpec } from '../types.js';
import { keyUuid } from './order-key.fast.js';

/**
 * The namespace of order keys: an `idempotencyKey` of `orders.create` or
 * `client.charge` that is not a UUID is sent as its UUID version 5 (RFC 9562, the key's UTF-8
 * bytes) in this namespace, so one string names one order from any process, rerun or language.
 *
 * @example
 * // Python: uuid.uuid5(uuid.UUID(ORDER_KEY_NAMESPACE), 'checkout-cart-1')
 * const header = uuidV5('checkout-cart-1', ORDER_KEY_NAMESPACE);
 */
export const ORDER_KEY_NAMESPACE = '28fe90d0-4725-4dbb-9216-63002d29ecdf';

/**
 * The `Idempotency-Key` an order creation sends for the caller's key (checked by the core): a UUID
 * (any version, any case) unchanged, any other string as its UUID v5 in {@link ORDER_KEY_NAMESPACE}
 * (a promise of it in the build for runtimes other than Node.js, whose SHA-1 is Web Crypto's).
 *
 * @example
 * orderKey('checkout-cart-1'); // the same UUID on every call, in every process
 */
export function orderKey(key: string): string | Promise<string> {
  return UUID_PATTERN.test(key) ? key : keyUuid(key, ORDER_KEY_NAMESPACE);
}

/**
 * The headers of one call over `base` (Accept, User-Agent and the client's defaults, lower-case);
 * `key` is the call's `idempotencyKey`, as the core checked it. A promise only for an order key
 * derived asynchronously (see {@link orderKey}); a call that sends no key never waits.
 */
export function callHeaders(
  base: Record<string, string>,
  spec: CoreSpec,
  key: string | undefined,
): Record<string, string> | Promise<Record<string, string>> {
  const opts = spec.options;
  // Copied with Object.assign, not spread: on Node 20 each header added to an object spread from
  // another costs about a microsecond (V8 11); a call adds two to four (bench/object-copy.ts).
  const headers: Record<string, string> = Object.assign({}, base);
  if (opts?.headers) Object.assign(headers, lowerCaseHeaders(opts.headers));
  if (spec.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  else if (spec.body !== undefined) headers['content-type'] = 'application/json';
  // One key per call, so every attempt of an order creation is the same order to the service.
  // A key given as a header counts as the caller's key too.
  const given = key ?? headers['idempotency-key'];
  if (spec.retry !== 'keyed') {
    if (given !== undefined) headers['idempotency-key'] = given;
    return headers;
  }
  const sent = given === undefined ? crypto.randomUUID() : orderKey(given);
  if (typeof sent !== 'string')
    return sent.then((uuid) => {
      headers['idempotency-key'] = uuid;
      return headers;
    });
  headers['idempotency-key'] = sent;
  return headers;
}

/** A copy of `headers` with lower-case names, so that a caller's header replaces the SDK's one. */
export function lowerCaseHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue;
    out[name.toLowerCase()] = value;
  }
  return out;
}
