// The UUID v5 of an order key that is not a UUID (headers.ts) in the Node.js build: the SHA-1
// written out (src/internal/uuid-v5.ts), synchronous, so that the call goes on at once. The build
// for other runtimes resolves order-key.fast.js to order-key.fast.web.ts (tsup.config.ts).
import { uuidV5 } from '../../internal/uuid-v5.js';

/** The UUID v5 of `key` in `namespace`: here at once; a promise in the build for other runtimes. */
export const keyUuid: (key: string, namespace: string) => string | Promise<string> = uuidV5;
