// Generated from src/schemas/zod/refunds.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { nullable, number, object, oneOf, optional, type Schema, string, union } from '../check/index.js';
import type * as Z from '../zod/refunds.js';
import { positiveCents, timestamp } from './fields.js';

export const RefundStatus = /* @__PURE__ */ union([
  /* @__PURE__ */ oneOf(['pending', 'approved', 'failed']),
  /* @__PURE__ */ string(),
]) as typeof Z.RefundStatus & Schema;
export const Refund = /* @__PURE__ */ object(
  {
    refund_id: /* @__PURE__ */ string(),
    payment_id: /* @__PURE__ */ string(),
    order_id: /* @__PURE__ */ string(),
    status: RefundStatus,
    amount_cents: /* @__PURE__ */ number(),
    reason: /* @__PURE__ */ optional(
      /* @__PURE__ */ nullable(
        /* @__PURE__ */ union([
          /* @__PURE__ */ oneOf(['customer_request', 'duplicate', 'fraudulent', 'other']),
          /* @__PURE__ */ string(),
        ]),
      ),
    ),
    created_at: timestamp,
    processor_message: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
  },
  'loose',
) as typeof Z.Refund & Schema;
export const RefundReason = /* @__PURE__ */ oneOf(
  ['customer_request', 'duplicate', 'fraudulent', 'other'],
  'must be one of customer_request, duplicate, fraudulent, other',
) as typeof Z.RefundReason & Schema;
export const RefundCreateParams = /* @__PURE__ */ object(
  { amount_cents: positiveCents, reason: /* @__PURE__ */ optional(RefundReason) },
  'strict',
) as typeof Z.RefundCreateParams & Schema;
