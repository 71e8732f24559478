// The zod schemas of Level 3 (line-item) data; the cross-field arithmetic is `level3Violations()`
// (src/schemas/rules/level3.ts).
import * as z from 'zod';
import { nonNegativeCents, ruleCheck } from './fields.js';
import {
  isPositive,
  LEVEL3_DESCRIPTION_MAX,
  LEVEL3_TOLERANCE_CENTS,
  type Level3Violation,
  level3Issues,
  level3Violations,
} from './rules/level3.js';

export { LEVEL3_DESCRIPTION_MAX, LEVEL3_TOLERANCE_CENTS, type Level3Violation, level3Violations };

/**
 * One Level 3 line item. `quantity` may be fractional (fuel is sold in fractions of a gallon).
 *
 * @example
 * const fuel: Level3LineItem = { description: 'Diesel', quantity: 12.5, unit_price_cents: 389, total_cents: 4_863, tax_amount_cents: 389 };
 */
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
export type Level3LineItem = z.infer<typeof Level3LineItem>;

/**
 * Level 3 (line-item) data for business and fleet card schemes.
 *
 * @example
 * const level3: Level3 = { tax_amount_cents: 389, line_items: [fuel], customer_reference: 'PO-7731' };
 * await client.orders.create({ location_id: locationId, total_cents: 4_863, level3 });
 */
export const Level3 = z
  .strictObject({
    tax_amount_cents: nonNegativeCents,
    line_items: z.array(Level3LineItem).min(1, { error: 'must have at least one line item' }),
    /** @default undefined (not sent) */
    customer_reference: z.string().optional(),
  })
  .check(ruleCheck(level3Issues));
export type Level3 = z.infer<typeof Level3>;
