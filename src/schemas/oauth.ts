// The token endpoint's answer (spec 5.3): its type, inferred from src/schemas/zod/oauth.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/oauth.js';

/**
 * The token endpoint's answer (spec 5.3), read leniently.
 * @useDeclaredType
 */
export type TokenResponse = z.infer<typeof Z.TokenResponse>;
