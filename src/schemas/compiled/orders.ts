// Generated from src/schemas/zod/orders.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import {
  array,
  fast,
  nullable,
  number,
  object,
  oneOf,
  optional,
  rule,
  type Schema,
  string,
  union,
} from '../check/index.js';
import { hostedCheckoutIssues } from '../rules/orders.js';
import type * as Z from '../zod/orders.js';
import { e164Phone, email, positiveCents, secureUrl, timestamp, uuid } from './fields.js';
import { Level3 } from './level3.js';
import { metadata } from './metadata.js';
import { acceptOrderCreateRequest } from './orders.fast.js';
import { PaymentStatus } from './payments.js';

export const OrderStatus = /* @__PURE__ */ union([
  /* @__PURE__ */ oneOf(['open', 'pending', 'paid', 'partially_paid', 'voided', 'refunded', 'cancelled']),
  /* @__PURE__ */ string(),
]) as typeof Z.OrderStatus & Schema;
export const OrderPayment = /* @__PURE__ */ object(
  {
    payment_id: /* @__PURE__ */ string(),
    status: PaymentStatus,
    amount_cents: /* @__PURE__ */ number(),
    method: /* @__PURE__ */ string(),
    created_at: timestamp,
  },
  'loose',
) as typeof Z.OrderPayment & Schema;
export const Order = /* @__PURE__ */ object(
  {
    order_id: /* @__PURE__ */ string(),
    location_id: /* @__PURE__ */ string(),
    status: OrderStatus,
    total_cents: /* @__PURE__ */ number(),
    description: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    external_reference: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    customer_name: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    payments: /* @__PURE__ */ array(OrderPayment),
    opened_by_m2m_client_id: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    created_at: timestamp,
    updated_at: timestamp,
  },
  'loose',
) as typeof Z.Order & Schema;
export const OrderCreateParams = /* @__PURE__ */ object(
  {
    location_id: uuid,
    total_cents: positiveCents,
    description: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    external_reference: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    external_source: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    external_id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    customer_name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    customer_phone: /* @__PURE__ */ optional(e164Phone),
    customer_email: /* @__PURE__ */ optional(email),
    department_id: /* @__PURE__ */ optional(uuid),
    metadata: /* @__PURE__ */ optional(metadata),
    level3: /* @__PURE__ */ optional(Level3),
    return_url: /* @__PURE__ */ optional(secureUrl),
    cancel_url: /* @__PURE__ */ optional(secureUrl),
  },
  'strict',
) as typeof Z.OrderCreateParams & Schema;
export const OrderCreateRequest = /* @__PURE__ */ fast(
  /* @__PURE__ */ object(
    {
      location_id: uuid,
      total_cents: positiveCents,
      description: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      external_reference: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      external_source: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      external_id: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      customer_name: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
      customer_phone: /* @__PURE__ */ optional(e164Phone),
      customer_email: /* @__PURE__ */ optional(email),
      department_id: /* @__PURE__ */ optional(uuid),
      metadata: /* @__PURE__ */ optional(metadata),
      level3: /* @__PURE__ */ optional(Level3),
      return_url: /* @__PURE__ */ optional(secureUrl),
      cancel_url: /* @__PURE__ */ optional(secureUrl),
    },
    'strict',
    undefined,
    [/* @__PURE__ */ rule(hostedCheckoutIssues)],
  ),
  acceptOrderCreateRequest,
) as typeof Z.OrderCreateRequest & Schema;
export const OrderCreated = /* @__PURE__ */ object(
  {
    order_id: /* @__PURE__ */ string(),
    status: OrderStatus,
    total_cents: /* @__PURE__ */ number(),
    created_at: timestamp,
    hosted_checkout_url: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    expires_at: /* @__PURE__ */ optional(timestamp),
  },
  'loose',
) as typeof Z.OrderCreated & Schema;
