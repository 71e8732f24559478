// Generated from src/schemas/zod/launch-tokens.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { boolean, minLength, object, optional, type Schema, string } from '../check/index.js';
import type * as Z from '../zod/launch-tokens.js';
import { timestamp, uuid } from './fields.js';

export const LaunchExchangeParams = /* @__PURE__ */ object(
  { launch_token: /* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1, 'must not be empty')]) },
  'strict',
) as typeof Z.LaunchExchangeParams & Schema;
export const LaunchSession = /* @__PURE__ */ object(
  {
    session_token: /* @__PURE__ */ string(),
    user_id: /* @__PURE__ */ string(),
    location_id: /* @__PURE__ */ string(),
    role_slug: /* @__PURE__ */ string(),
    provisioned: /* @__PURE__ */ boolean(),
    expires_at: timestamp,
  },
  'loose',
) as typeof Z.LaunchSession & Schema;
export const LaunchToken = /* @__PURE__ */ object(
  {
    launch_token: /* @__PURE__ */ string(),
    launch_url: /* @__PURE__ */ string(),
    location_id: /* @__PURE__ */ string(),
    role_slug: /* @__PURE__ */ string(),
    expires_at: timestamp,
  },
  'loose',
) as typeof Z.LaunchToken & Schema;
export const LaunchTokenCreateParams = /* @__PURE__ */ object(
  {
    location_id: uuid,
    role_slug: /* @__PURE__ */ optional(
      /* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1, 'must not be empty')]),
    ),
    user_ref: /* @__PURE__ */ optional(/* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1)])),
  },
  'strict',
) as typeof Z.LaunchTokenCreateParams & Schema;
