import { z } from 'zod';
import { timestamp } from './common.js';
import { EVENT_KINDS, EventKind } from './events.js';

/** The body of `POST /admin/v1/partners/{partner_id}/webhook-endpoints`. */
export const WebhookEndpointCreateParams = z.strictObject({
  /** Where deliveries go; must be `https://`. */
  url: z.string().refine(
    (value) => {
      try {
        return new URL(value).protocol === 'https:';
      } catch {
        return false;
      }
    },
    { error: 'must be an https:// URL' },
  ),
  /** The event kinds to deliver; omit for all. */
  event_kinds: z
    .array(z.enum(EVENT_KINDS, { error: `must be one of ${EVENT_KINDS.join(', ')}` }))
    .min(1, { error: 'must name at least one event kind (omit it for all)' })
    .optional(),
  description: z.string().optional(),
});
export type WebhookEndpointCreateParams = z.input<typeof WebhookEndpointCreateParams>;

/** A registered webhook endpoint. `signing_secret` is shown once, at creation: store it safely. */
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
