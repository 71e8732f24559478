// Generated from src/schemas/zod/webhook-endpoints.ts by scripts/compile-schemas.ts: do not edit.
// The zod schemas of that file as compiled checks (src/schemas/check/); test/schemas/compiled.test.ts
// holds the two equal.
import { array, minLength, nullable, object, oneOf, optional, type Schema, string } from '../check/index.js';
import { EVENT_KINDS } from '../event-envelope.js';
import type * as Z from '../zod/webhook-endpoints.js';
import { EventKind } from './events.js';
import { secureUrl, timestamp } from './fields.js';

export const WebhookEndpoint = /* @__PURE__ */ object(
  {
    webhook_endpoint_id: /* @__PURE__ */ string(),
    partner_id: /* @__PURE__ */ string(),
    url: /* @__PURE__ */ string(),
    event_kinds: /* @__PURE__ */ nullable(/* @__PURE__ */ array(EventKind)),
    description: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    signing_secret: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
    created_at: timestamp,
  },
  'loose',
) as typeof Z.WebhookEndpoint & Schema;
export const WebhookEndpointCreateParams = /* @__PURE__ */ object(
  {
    url: secureUrl,
    event_kinds: /* @__PURE__ */ optional(
      /* @__PURE__ */ array(
        /* @__PURE__ */ oneOf(
          EVENT_KINDS,
          'must be one of payment.approved, payment.refunded, payment.voided, payment.cancelled, payment.expired, payment.reversal_settled, payment.reversal_failed',
        ),
        undefined,
        [/* @__PURE__ */ minLength(1, 'must name at least one event kind (omit it for all)')],
      ),
    ),
    description: /* @__PURE__ */ optional(/* @__PURE__ */ string()),
  },
  'strict',
) as typeof Z.WebhookEndpointCreateParams & Schema;
export const WebhookEndpointCreated = /* @__PURE__ */ object(
  {
    webhook_endpoint_id: /* @__PURE__ */ string(),
    partner_id: /* @__PURE__ */ string(),
    url: /* @__PURE__ */ string(),
    event_kinds: /* @__PURE__ */ nullable(/* @__PURE__ */ array(EventKind)),
    description: /* @__PURE__ */ optional(/* @__PURE__ */ nullable(/* @__PURE__ */ string())),
    signing_secret: /* @__PURE__ */ string(),
    created_at: timestamp,
  },
  'loose',
) as typeof Z.WebhookEndpointCreated & Schema;
