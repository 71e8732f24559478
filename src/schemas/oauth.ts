// The token endpoint's answer (spec 5.3): its type, inferred from src/schemas/zod/oauth.ts, and the
// check the client runs, compiled from it (src/schemas/compiled/oauth.ts): loading this loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/oauth.js';
import type * as Z from './zod/oauth.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const TokenResponse = compiled.TokenResponse;

/**
 * The token endpoint's answer (spec 5.3), read leniently.
 * @useDeclaredType
 */
export type TokenResponse = z.infer<typeof Z.TokenResponse>;
