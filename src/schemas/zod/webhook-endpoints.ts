// The zod schemas of webhook endpoint registration (spec 4.13): the create body, the endpoint, and the
// answer with its signing secret. The source of the types (src/schemas/webhook-endpoints.ts), of the
// checks the client runs (src/schemas/compiled/), and of the mock's checks and documents.
import * as z from 'zod';
import { EVENT_KINDS } from '../event-envelope.js';
import { EventKind } from './events.js';
import { secureUrl, timestamp } from './fields.js';

/** The body of `POST /admin/v1/partners/{partner_id}/webhook-endpoints`. */
export const WebhookEndpointCreateParams = z.strictObject({
  /** Where deliveries go: `https://` (`http://` only for a loopback receiver, e.g. against the mock). */
  url: secureUrl,
  /** The event kinds to deliver; omit for all. @default undefined (every kind) */
  event_kinds: z
    .array(z.enum(EVENT_KINDS, { error: `must be one of ${EVENT_KINDS.join(', ')}` }))
    .min(1, { error: 'must name at least one event kind (omit it for all)' })
    .optional(),
  /** @default undefined (not sent) */
  description: z.string().optional(),
});
/** A registered webhook endpoint. */
export const WebhookEndpoint = z.looseObject({
  webhook_endpoint_id: z.string(),
  partner_id: z.string(),
  url: z.string(),
  /** The kinds delivered; null means all. */
  event_kinds: z.array(EventKind).nullable(),
  description: z.string().nullable().optional(),
  signing_secret: z.string().optional(),
  created_at: timestamp,
});
/** The answer to a registration: the endpoint with its `signing_secret`, shown this once. */
export const WebhookEndpointCreated = WebhookEndpoint.extend({ signing_secret: z.string() });
