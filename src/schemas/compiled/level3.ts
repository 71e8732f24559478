// Generated from src/schemas/zod/level3.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import {
  array,
  maxLength,
  minLength,
  number,
  object,
  optional,
  refine,
  rule,
  type Schema,
  string,
} from '../check/index.js';
import { isPositive, level3Issues } from '../rules/level3.js';
import type * as Z from '../zod/level3.js';
import { nonNegativeCents } from './fields.js';

export const Level3LineItem = /* @__PURE__ */ object(
  {
    description: /* @__PURE__ */ string(undefined, [
      /* @__PURE__ */ minLength(1, 'must not be empty'),
      /* @__PURE__ */ maxLength(40, 'must be at most 40 characters'),
    ]),
    quantity: /* @__PURE__ */ number('must be a number', [
      /* @__PURE__ */ refine(Number.isFinite, 'must be a finite number'),
      /* @__PURE__ */ refine(isPositive, 'must be greater than 0'),
    ]),
    unit_price_cents: nonNegativeCents,
    total_cents: nonNegativeCents,
    tax_amount_cents: /* @__PURE__ */ optional(nonNegativeCents),
    product_code: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    unit_of_measure: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'strict',
) as typeof Z.Level3LineItem & Schema;
export const Level3 = /* @__PURE__ */ object(
  {
    tax_amount_cents: nonNegativeCents,
    line_items: /* @__PURE__ */ array(Level3LineItem, undefined, [
      /* @__PURE__ */ minLength(1, 'must have at least one line item'),
    ]),
    customer_reference: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'strict',
  undefined,
  [/* @__PURE__ */ rule(level3Issues)],
) as typeof Z.Level3 & Schema;
