// The type of the error envelope every error response carries, inferred from
// src/schemas/zod/fields.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/fields.js';

/**
 * The error envelope every error response carries.
 *
 * @useDeclaredType
 * @example
 * const body: ErrorBody = { error: 'order_not_found', message: 'No such order', request_id: 'req_123' };
 */
export type ErrorBody = z.infer<typeof Z.ErrorBody>;
