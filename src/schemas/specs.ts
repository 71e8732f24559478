// The service's machine-readable descriptions (spec 4.10): the check the client runs (any JSON
// object), compiled from src/schemas/zod/specs.ts (src/schemas/compiled/specs.ts): loads no zod.
import * as compiled from './compiled/specs.js';

// The checks the client runs, under the names of the zod schemas they were compiled from.
/** @hidden */
export const JsonDocumentSchema = compiled.JsonDocumentSchema;
