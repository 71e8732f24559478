// The Level 3 rules that span fields, as pure functions (no zod): the zod schema (src/schemas/level3.ts)
// checks them, and so do the checks compiled from it and the mock.
import type { RuleIssue } from './rule.js';

/** The longest Level 3 line description the processor accepts. */
export const LEVEL3_DESCRIPTION_MAX = 40;
/** How far totals may differ (in cents) and still reconcile. */
export const LEVEL3_TOLERANCE_CENTS = 1;

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

/** {@link level3Violations} as the issues of a check: each carries the service's code in `params`. */
export function level3Issues(level3: Parameters<typeof level3Violations>[0]): RuleIssue[] {
  return level3Violations(level3).map((v) => ({
    path: v.path,
    message: v.message,
    params: { serviceCode: v.code },
  }));
}

/** Whether a quantity is greater than 0 (the rule of a line's `quantity`). */
export function isPositive(quantity: number): boolean {
  return quantity > 0;
}
