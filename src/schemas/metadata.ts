// An order's `metadata`: its check compiled from src/schemas/zod/metadata.ts (loading this module loads
// no zod), and its rules and limits (src/schemas/rules/metadata.ts).
export { metadata } from './compiled/metadata.js';
export { type JsonValue, METADATA_LIMITS, metadataIssues } from './rules/metadata.js';
