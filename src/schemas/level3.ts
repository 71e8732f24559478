// Level 3 (line-item) data: the types, inferred from src/schemas/zod/level3.ts, and the cross-field
// arithmetic, `level3Violations()` (src/schemas/rules/level3.ts).
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/level3.js';

export {
  LEVEL3_DESCRIPTION_MAX,
  LEVEL3_TOLERANCE_CENTS,
  type Level3Violation,
  level3Violations,
} from './rules/level3.js';

/**
 * One Level 3 line item. `quantity` may be fractional (fuel is sold in fractions of a gallon).
 *
 * @useDeclaredType
 * @example
 * const fuel: Level3LineItem = { description: 'Diesel', quantity: 12.5, unit_price_cents: 389, total_cents: 4_863, tax_amount_cents: 389 };
 */
export type Level3LineItem = z.infer<typeof Z.Level3LineItem>;

/**
 * Level 3 (line-item) data for business and fleet card schemes.
 *
 * @useDeclaredType
 * @example
 * const level3: Level3 = { tax_amount_cents: 389, line_items: [fuel], customer_reference: 'PO-7731' };
 * await client.orders.create({ location_id: locationId, total_cents: 4_863, level3 });
 */
export type Level3 = z.infer<typeof Z.Level3>;
