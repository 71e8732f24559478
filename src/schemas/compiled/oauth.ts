// Generated from src/schemas/zod/oauth.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { above, minLength, number, object, optional, type Schema, string } from '../check/index.js';
import type * as Z from '../zod/oauth.js';

export const TokenResponse = /* @__PURE__ */ object(
  {
    access_token: /* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1)]),
    expires_in: /* @__PURE__ */ optional(
      /* @__PURE__ */ number(undefined, [/* @__PURE__ */ above(0, false)]),
    ),
    token_type: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'loose',
) as typeof Z.TokenResponse & Schema;
