import { randomBytes, randomUUID } from 'node:crypto';
import type { KnownEventKind } from '../../schemas/events.js';
import type { MockCore } from '../core.js';
import { json, MockApiError } from '../respond.js';
import type { MockState, WebhookEndpointRecord } from '../state.js';
import type { Handlers } from './index.js';

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

/** 4.13 register a webhook endpoint (https, or http for a loopback receiver; the secret is in this response only). */
export function webhookEndpointRoutes(core: MockCore): Pick<Handlers, 'createWebhookEndpoint'> {
  return {
    createWebhookEndpoint(ctx) {
      if (ctx.params.partner_id !== ctx.caller.partnerId) {
        throw new MockApiError(403, 'permission_denied', 'You may only manage your own partner');
      }
      // The request schema's url takes http:// for a loopback receiver (the mock only delivers to loopback).
      const params = ctx.body();
      const record = addWebhookEndpoint(
        core.state,
        {
          partnerId: ctx.caller.partnerId,
          url: params.url,
          eventKinds: params.event_kinds ?? null,
          description: params.description ?? null,
        },
        core.clock.iso(),
      );
      return json(201, record, ctx.requestId);
    },
  };
}
