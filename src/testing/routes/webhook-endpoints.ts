// The mock's webhook endpoint route (spec 4.13): registers an endpoint for the caller's own partner.
import { addWebhookEndpoint } from '../domain/webhooks.js';
import type { MockCore } from '../engine/mock-core.js';
import { json, MockApiError } from '../engine/respond.js';
import type { Handlers } from './handlers.js';

/**
 * 4.13 register a webhook endpoint for the caller's partner or one of its subtree (https, or http for
 * a loopback receiver; the secret is in this response only).
 */
export function webhookEndpointRoutes(core: MockCore): Pick<Handlers, 'createWebhookEndpoint'> {
  return {
    createWebhookEndpoint(ctx) {
      const partnerId = ctx.params.partner_id ?? '';
      // A partner manages itself and the partners of its subtree (spec 1.8).
      if (!core.state.partners.has(partnerId) || !core.state.inSubtree(ctx.caller.partnerId, partnerId)) {
        throw new MockApiError(
          403,
          'permission_denied',
          'You may only manage your own partner and the partners below it',
        );
      }
      // The request schema's url takes http:// for a loopback receiver (the mock only delivers to loopback).
      const params = ctx.body();
      const record = addWebhookEndpoint(
        core.state,
        {
          partnerId,
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
