// The zod schemas and types of webhook endpoint registration (spec 4.13): the create body, the
// endpoint, and the answer carrying its signing secret once.
import * as z from 'zod';
import { EVENT_KINDS, EventKind } from './events.js';
import { secureUrl, timestamp } from './fields.js';

/**
 * The body of `POST /admin/v1/partners/{partner_id}/webhook-endpoints`.
 *
 * @example
 * const params: WebhookEndpointCreateParams = { url: 'https://example.com/webhooks', event_kinds: ['payment.approved'] };
 */
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
export type WebhookEndpointCreateParams = z.input<typeof WebhookEndpointCreateParams>;

/**
 * A registered webhook endpoint. `signing_secret` is shown once, at creation: store it safely.
 *
 * @example
 * const endpoint: WebhookEndpoint = await client.webhookEndpoints.create(partnerId, { url });
 * await secrets.put('payments-webhook-secret', endpoint.signing_secret);
 */
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
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/**
 * The answer to a registration: the endpoint with its `signing_secret`, shown this once.
 *
 * @example
 * const created: WebhookEndpointCreated = await client.webhookEndpoints.create(partnerId, { url });
 * await secrets.put('payments-webhook-secret', created.signing_secret);
 */
export const WebhookEndpointCreated = WebhookEndpoint.extend({ signing_secret: z.string() });
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreated>;
