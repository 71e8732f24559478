// Generated from src/schemas/zod/metadata.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { custom, rule, type Schema } from '../check/index.js';
import { anyValue, metadataIssues } from '../rules/metadata.js';
import type * as Z from '../zod/metadata.js';

export const metadata = /* @__PURE__ */ custom(anyValue, undefined, [
  /* @__PURE__ */ rule(metadataIssues),
]) as typeof Z.metadata & Schema;
