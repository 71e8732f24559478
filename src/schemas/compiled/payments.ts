// Generated from src/schemas/zod/payments.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { nullable, number, object, oneOf, optional, type Schema, string, union } from '../check/index.js';
import type * as Z from '../zod/payments.js';
import { positiveCents, timestamp } from './fields.js';
import { Level3 } from './level3.js';

export const PaymentStatus = /* @__PURE__ */ union([
  /* @__PURE__ */ oneOf([
    'pending',
    'approved',
    'settled',
    'declined',
    'failed',
    'voided',
    'refunded',
    'cancelled',
    'expired',
  ]),
  /* @__PURE__ */ string(),
]) as typeof Z.PaymentStatus & Schema;
export const Payment = /* @__PURE__ */ object(
  {
    payment_id: /* @__PURE__ */ string(),
    order_id: /* @__PURE__ */ string(),
    status: PaymentStatus,
    amount_cents: /* @__PURE__ */ number(),
    method: /* @__PURE__ */ string(),
    processor_reference: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    created_at: timestamp,
    updated_at: /* @__PURE__ */ optional(timestamp),
  },
  'loose',
) as typeof Z.Payment & Schema;
export const PaymentCreateParams = /* @__PURE__ */ object(
  {
    method: /* @__PURE__ */ oneOf(['card'], "must be 'card'"),
    amount_cents: positiveCents,
    level3: /* @__PURE__ */ optional(Level3),
  },
  'strict',
) as typeof Z.PaymentCreateParams & Schema;
export const VoidResult = /* @__PURE__ */ object(
  { payment_id: /* @__PURE__ */ string(), status: PaymentStatus, voided_at: timestamp },
  'loose',
) as typeof Z.VoidResult & Schema;
