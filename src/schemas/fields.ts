// The building blocks every schema shares, as the client checks them: UUIDs, cents, contact formats,
// secure URLs, page bounds and the error envelope; the type of the error envelope. Compiled from
// src/schemas/zod/fields.ts (src/schemas/compiled/fields.ts): loading this module loads no zod.
import type { z } from 'zod';
import * as compiled from './compiled/fields.js';
import type * as Z from './zod/fields.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const cents = compiled.cents;
/** @hidden */
export const ErrorBody = compiled.ErrorBody;
/** @hidden */
export const e164Phone = compiled.e164Phone;
/** @hidden */
export const email = compiled.email;
/** @hidden */
export const nonNegativeCents = compiled.nonNegativeCents;
/** @hidden */
export const pageLimit = compiled.pageLimit;
/** @hidden */
export const pageOffset = compiled.pageOffset;
/** @hidden */
export const positiveCents = compiled.positiveCents;
/** @hidden */
export const secureUrl = compiled.secureUrl;
/** @hidden */
export const timestamp = compiled.timestamp;
/** @hidden */
export const uuid = compiled.uuid;

/**
 * The error envelope every error response carries.
 *
 * @useDeclaredType
 * @example
 * const body: ErrorBody = { error: 'order_not_found', message: 'No such order', request_id: 'req_123' };
 */
export type ErrorBody = z.infer<typeof Z.ErrorBody>;
