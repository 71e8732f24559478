// Generated from src/schemas/zod/orders.ts by scripts/compile-schemas.ts: do not edit.
// The build for Workers, edge runtimes and browsers resolves orders.fast.js here (tsup.config.ts): no
// fast paths, for a smaller bundle; the full checks run, with the same outcome.
import type { Accept } from '../check/index.js';

export const acceptOrderCreateRequest: Accept | undefined = undefined;
