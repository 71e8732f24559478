// The zod schemas of Level 3 (line-item) data; the cross-field arithmetic is `level3Violations()`
// (src/schemas/rules/level3.ts). The source of the types (src/schemas/level3.ts) and of the checks the
// client runs (src/schemas/compiled/level3.ts).
import * as z from 'zod';
import { isPositive, LEVEL3_DESCRIPTION_MAX, level3Issues } from '../rules/level3.js';
import { nonNegativeCents, ruleCheck } from './fields.js';

/** One Level 3 line item. */
export const Level3LineItem = z.strictObject({
  description: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(LEVEL3_DESCRIPTION_MAX, { error: `must be at most ${LEVEL3_DESCRIPTION_MAX} characters` }),
  quantity: z
    .number({ error: 'must be a number' })
    .refine(Number.isFinite, { error: 'must be a finite number' })
    .refine(isPositive, { error: 'must be greater than 0' }),
  unit_price_cents: nonNegativeCents,
  total_cents: nonNegativeCents,
  /** This line's tax. @default undefined (counts as 0 in the tax reconciliation) */
  tax_amount_cents: nonNegativeCents.optional(),
  /** @default undefined (not sent) */
  product_code: z.string().optional(),
  /** @default undefined (not sent) */
  unit_of_measure: z.string().optional(),
});
/** Level 3 (line-item) data for business and fleet card schemes. */
export const Level3 = z
  .strictObject({
    tax_amount_cents: nonNegativeCents,
    line_items: z.array(Level3LineItem).min(1, { error: 'must have at least one line item' }),
    /** @default undefined (not sent) */
    customer_reference: z.string().optional(),
  })
  .check(ruleCheck(level3Issues));
