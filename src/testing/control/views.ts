// Webhook deliveries and events as the control API and the dashboard show them (snake_case, no body,
// no secret).
import type { z } from 'zod';
import type { Delivery, EventEnvelope } from '../webhooks/deliveries.js';
import type { DeliveryView, EventView } from './schemas.js';

/** A webhook delivery as the control API and the dashboard show it (snake_case, no body, no secret). */
export function deliveryView(d: Delivery): z.output<typeof DeliveryView> {
  return {
    delivery_id: d.delivery_id,
    event_id: d.event_id,
    event_kind: d.event_kind,
    webhook_endpoint_id: d.webhook_endpoint_id,
    url: d.url,
    status: d.status,
    attempts: d.attempts.map((a) => ({ at: a.at, status: a.status, ok: a.ok, error: a.error ?? null })),
    next_attempt_at: d.next_attempt_at,
    replay_of: d.replay_of,
  };
}

export function eventView(e: EventEnvelope): z.output<typeof EventView> {
  return {
    event_id: e.event_id,
    event_kind: e.event_kind,
    occurred_at: e.occurred_at,
    partner_id: e.partner_id,
    resource: e.resource,
  };
}
