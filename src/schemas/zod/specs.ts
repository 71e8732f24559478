// The zod schema of the service's machine-readable descriptions (spec 4.10): any JSON object; the
// source of the check the client runs (src/schemas/compiled/specs.ts).
import * as z from 'zod';

/** An OpenAPI or AsyncAPI document: a JSON object, read as it is. */
export const JsonDocumentSchema = z.record(z.string(), z.unknown());
