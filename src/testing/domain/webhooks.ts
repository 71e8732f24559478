// The mock's webhook endpoints (spec 4.13): `addWebhookEndpoint()`.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KnownEventKind } from '../../schemas/events.js';
import type { MockState, WebhookEndpointRecord } from '../state.js';

// The webhook endpoint aggregate: registering an endpoint (4.13; the route and mock.webhooks.register).

/** Stores a webhook endpoint with a fresh signing secret; returns the record (secret included). */
export function addWebhookEndpoint(
  state: MockState,
  input: {
    partnerId: string;
    url: string;
    eventKinds?: KnownEventKind[] | null;
    description?: string | null;
  },
  createdAt: string,
): WebhookEndpointRecord {
  const record: WebhookEndpointRecord = {
    webhook_endpoint_id: randomUUID(),
    partner_id: input.partnerId,
    url: input.url,
    event_kinds: input.eventKinds && input.eventKinds.length > 0 ? [...input.eventKinds] : null,
    description: input.description ?? null,
    signing_secret: `whsec_${randomBytes(24).toString('base64url')}`,
    created_at: createdAt,
  };
  state.webhookEndpoints.set(record.webhook_endpoint_id, record);
  return record;
}
