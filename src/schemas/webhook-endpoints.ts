// Webhook endpoint registration (spec 4.13): the types of the create body, the endpoint and the answer
// with its signing secret, inferred from src/schemas/zod/webhook-endpoints.ts.
// The checks the client runs are in src/schemas/compiled/, under the same names, and are not
// re-exported here: a type and a value of one name get published as a value (see src/index.ts).
import type { z } from 'zod';
import type * as Z from './zod/webhook-endpoints.js';

/**
 * The body of `POST /admin/v1/partners/{partner_id}/webhook-endpoints`.
 *
 * @useDeclaredType
 * @example
 * const params: WebhookEndpointCreateParams = { url: 'https://example.com/webhooks', event_kinds: ['payment.approved'] };
 */
export type WebhookEndpointCreateParams = z.input<typeof Z.WebhookEndpointCreateParams>;

/**
 * A registered webhook endpoint. `signing_secret` is shown once, at creation: store it safely.
 *
 * @useDeclaredType
 * @example
 * const endpoint: WebhookEndpoint = await client.webhookEndpoints.create(partnerId, { url });
 * await secrets.put('payments-webhook-secret', endpoint.signing_secret);
 */
export type WebhookEndpoint = z.infer<typeof Z.WebhookEndpoint>;

/**
 * The answer to a registration: the endpoint with its `signing_secret`, shown this once.
 *
 * @useDeclaredType
 * @example
 * const created: WebhookEndpointCreated = await client.webhookEndpoints.create(partnerId, { url });
 * await secrets.put('payments-webhook-secret', created.signing_secret);
 */
export type WebhookEndpointCreated = z.infer<typeof Z.WebhookEndpointCreated>;
