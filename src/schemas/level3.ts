// The zod schemas of Level 3 (line-item) data, and `level3Violations()`, the cross-field
// arithmetic that the SDK and the mock both apply.
import * as z from 'zod';
import { nonNegativeCents } from './common.js';

/** The longest Level 3 line description the processor accepts. */
export const LEVEL3_DESCRIPTION_MAX = 40;
/** How far totals may differ (in cents) and still reconcile. */
export const LEVEL3_TOLERANCE_CENTS = 1;

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
    .refine((q) => q > 0, { error: 'must be greater than 0' }),
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

/** A Level 3 violation as the service reports it: its error code, where, and why. */
export interface Level3Violation {
  code: 'level3_tax_mismatch' | 'level3_validation_failed';
  path: (string | number)[];
  message: string;
}

/**
 * The cross-field Level 3 rules (the per-field ones live in the schema): each line's `total_cents`
 * equals `round(quantity * unit_price_cents)` within 1 cent, and the object's `tax_amount_cents`
 * equals the sum of the lines' `tax_amount_cents` (0 when absent) within 1 cent.
 *
 * Pure, so the SDK (before sending) and the mock (answering) apply the same arithmetic.
 */
export function level3Violations(level3: {
  tax_amount_cents: number;
  line_items: readonly {
    quantity: number;
    unit_price_cents: number;
    total_cents: number;
    tax_amount_cents?: number | undefined;
  }[];
}): Level3Violation[] {
  const violations: Level3Violation[] = [];
  let taxSum = 0;
  level3.line_items.forEach((line, i) => {
    const expected = Math.round(line.quantity * line.unit_price_cents);
    if (Math.abs(line.total_cents - expected) > LEVEL3_TOLERANCE_CENTS) {
      violations.push({
        code: 'level3_validation_failed',
        path: ['line_items', i, 'total_cents'],
        message: `line ${i + 1}: total_cents ${line.total_cents} does not equal quantity x unit_price_cents (${expected}) within ${LEVEL3_TOLERANCE_CENTS} cent`,
      });
    }
    taxSum += line.tax_amount_cents ?? 0;
  });
  if (Math.abs(level3.tax_amount_cents - taxSum) > LEVEL3_TOLERANCE_CENTS) {
    violations.push({
      code: 'level3_tax_mismatch',
      path: ['tax_amount_cents'],
      message: `tax_amount_cents ${level3.tax_amount_cents} does not reconcile with the line items' tax (${taxSum}) within ${LEVEL3_TOLERANCE_CENTS} cent`,
    });
  }
  return violations;
}

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
  .superRefine((value, ctx) => {
    for (const v of level3Violations(value)) {
      ctx.addIssue({ code: 'custom', path: v.path, message: v.message, params: { serviceCode: v.code } });
    }
  });
export type Level3 = z.infer<typeof Level3>;
