// Generated from src/schemas/zod/events.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import {
  int,
  minLength,
  nullable,
  number,
  object,
  oneOf,
  optional,
  pattern,
  type Schema,
  string,
  union,
} from '../check/index.js';
import { EVENT_KINDS, ISO_TIMESTAMP_PATTERN } from '../event-envelope.js';
import type * as Z from '../zod/events.js';
import { uuid } from './fields.js';
import { PaymentStatus } from './payments.js';

export const EventResource = /* @__PURE__ */ object(
  {
    payment_id: uuid,
    order_id: uuid,
    status: PaymentStatus,
    amount_cents: /* @__PURE__ */ number(),
    method: /* @__PURE__ */ string(),
    external_reference: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
  },
  'loose',
) as typeof Z.EventResource & Schema;
export const EventBase = /* @__PURE__ */ object(
  {
    v: /* @__PURE__ */ oneOf([1]),
    event_id: /* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1)]),
    occurred_at: /* @__PURE__ */ string(undefined, [
      /* @__PURE__ */ pattern(
        ISO_TIMESTAMP_PATTERN,
        'must be an ISO 8601 timestamp such as 2026-05-12T10:15:30Z',
      ),
    ]),
    partner_id: uuid,
    resource: EventResource,
  },
  'strip',
) as typeof Z.EventBase & Schema;
export const EventKind = /* @__PURE__ */ union([
  /* @__PURE__ */ oneOf(EVENT_KINDS),
  /* @__PURE__ */ string(),
]) as typeof Z.EventKind & Schema;
export const RefundEventResource = /* @__PURE__ */ object(
  {
    payment_id: uuid,
    order_id: uuid,
    status: PaymentStatus,
    amount_cents: /* @__PURE__ */ number(),
    method: /* @__PURE__ */ string(),
    external_reference: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    refund_id: /* @__PURE__ */ string(),
    refund_status: /* @__PURE__ */ union([
      /* @__PURE__ */ oneOf(['pending', 'approved', 'failed']),
      /* @__PURE__ */ string(),
    ]),
    refund_amount_cents: /* @__PURE__ */ int(),
  },
  'loose',
) as typeof Z.RefundEventResource & Schema;
export const WebhookEventEnvelope = /* @__PURE__ */ object(
  {
    v: /* @__PURE__ */ oneOf([1]),
    event_id: /* @__PURE__ */ string(undefined, [/* @__PURE__ */ minLength(1)]),
    occurred_at: /* @__PURE__ */ string(undefined, [
      /* @__PURE__ */ pattern(
        ISO_TIMESTAMP_PATTERN,
        'must be an ISO 8601 timestamp such as 2026-05-12T10:15:30Z',
      ),
    ]),
    partner_id: uuid,
    resource: EventResource,
    event_kind: EventKind,
  },
  'loose',
) as typeof Z.WebhookEventEnvelope & Schema;
