// The UUID v5 of an order key that is not a UUID (headers.ts) in the build for Workers, edge
// runtimes and browsers (tsup.config.ts resolves order-key.fast.js here): Web Crypto's SHA-1, which
// is asynchronous, so that the bundle carries no SHA-1 of its own. The same UUID as order-key.fast.ts.
import { v5Input, v5Uuid } from '../../internal/uuid-v5.js';

/**
 * The UUID v5 of `key` in `namespace`, once Web Crypto has hashed it. An async function, so that the
 * promise is of this realm (the core tells it from headers with `instanceof Promise`): edge-runtime's
 * `crypto.subtle` belongs to its host, and so do the promises it returns.
 */
export async function keyUuid(key: string, namespace: string): Promise<string> {
  return v5Uuid(new Uint8Array(await crypto.subtle.digest('SHA-1', v5Input(key, namespace))));
}
