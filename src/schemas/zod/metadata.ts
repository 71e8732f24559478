// The zod schema of an order's `metadata`; its rules are `metadataIssues()`
// (src/schemas/rules/metadata.ts). The source of the check the client runs (src/schemas/compiled/).
import * as z from 'zod';
import { anyValue, type JsonValue, METADATA_LIMITS, metadataIssues } from '../rules/metadata.js';
import { ruleCheck } from './fields.js';

/**
 * An order's `metadata`: a plain object of JSON values, sent exactly as given (never copied,
 * converted or trimmed). Anything JSON would change or drop is refused with its path.
 */
export const metadata = z
  .custom<Record<string, JsonValue>>(anyValue)
  .check(ruleCheck(metadataIssues))
  .meta({
    type: 'object',
    additionalProperties: true,
    description: `JSON values, at most ${METADATA_LIMITS.maxDepth} levels deep and ${METADATA_LIMITS.maxBytes} bytes of JSON`,
  });
