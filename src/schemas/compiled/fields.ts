// Generated from src/schemas/zod/fields.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.

import { UUID_PATTERN } from '../../internal/uuid.js';
import { above, below, int, object, pattern, refine, type Schema, string } from '../check/index.js';
import { isSecureUrl } from '../common.js';
import type * as Z from '../zod/fields.js';

const PATTERN_0 = /* @__PURE__ */ /^\+[1-9]\d{1,14}$/;
const PATTERN_1 =
  /* @__PURE__ */ /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
export const ErrorBody = /* @__PURE__ */ object(
  {
    error: /* @__PURE__ */ string(),
    message: /* @__PURE__ */ string(),
    request_id: /* @__PURE__ */ string(),
  },
  'loose',
) as typeof Z.ErrorBody & Schema;
export const cents = /* @__PURE__ */ int(
  'must be an integer number of cents (no floats, strings, NaN or Infinity)',
) as typeof Z.cents & Schema;
export const e164Phone = /* @__PURE__ */ string(undefined, [
  /* @__PURE__ */ pattern(PATTERN_0, 'must be an E.164 phone number such as +15551234567'),
]) as typeof Z.e164Phone & Schema;
export const email = /* @__PURE__ */ string('must be an email address', [
  /* @__PURE__ */ pattern(PATTERN_1, 'must be an email address', 'email'),
]) as typeof Z.email & Schema;
export const nonNegativeCents = /* @__PURE__ */ int(
  'must be an integer number of cents (no floats, strings, NaN or Infinity)',
  [/* @__PURE__ */ above(0, true, 'must be 0 cents or more')],
) as typeof Z.nonNegativeCents & Schema;
export const pageLimit = /* @__PURE__ */ int('must be an integer', [
  /* @__PURE__ */ above(1, true, 'must be at least 1'),
  /* @__PURE__ */ below(200, true, 'must be at most 200'),
]) as typeof Z.pageLimit & Schema;
export const pageOffset = /* @__PURE__ */ int('must be an integer', [
  /* @__PURE__ */ above(0, true, 'must be 0 or more'),
]) as typeof Z.pageOffset & Schema;
export const positiveCents = /* @__PURE__ */ int(
  'must be an integer number of cents (no floats, strings, NaN or Infinity)',
  [/* @__PURE__ */ above(0, false, 'must be greater than 0 cents')],
) as typeof Z.positiveCents & Schema;
export const secureUrl = /* @__PURE__ */ string(undefined, [
  /* @__PURE__ */ refine(
    isSecureUrl,
    'must be an https:// URL (http:// only for 127.0.0.1, ::1 or localhost)',
  ),
]) as typeof Z.secureUrl & Schema;
export const timestamp = /* @__PURE__ */ string() as typeof Z.timestamp & Schema;
export const uuid = /* @__PURE__ */ string(undefined, [
  /* @__PURE__ */ pattern(UUID_PATTERN, 'must be a UUID (8-4-4-4-12 hexadecimal digits)'),
]) as typeof Z.uuid & Schema;
