// Generated from src/schemas/zod/specs.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { record, type Schema, unknown } from '../check/index.js';
import type * as Z from '../zod/specs.js';

export const JsonDocumentSchema = /* @__PURE__ */ record(
  /* @__PURE__ */ unknown(),
) as typeof Z.JsonDocumentSchema & Schema;
