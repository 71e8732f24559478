// The `client.webhookEndpoints` resource (spec 4.13): registers an https endpoint for a partner's
// webhook events and returns its signing secret.
import { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import { validate } from '../core/call/validate.js';
import type { RequestOptions } from '../core/types.js';
import {
  WebhookEndpointCreated,
  WebhookEndpointCreateParams,
} from '../schemas/compiled/webhook-endpoints.js';
import type * as T from '../schemas/webhook-endpoints.js';
import { ENDPOINTS, requestOf } from './endpoints.js';
import { checkIds } from './ids.js';

/** Webhook endpoint registration (spec 4.13; admin scope `svc/webhooks:subscribe`). */
export class WebhookEndpoints {
  constructor(private readonly client: Requester) {}

  /**
   * Registers an `https://` endpoint for a partner's events. The result carries `signing_secret`
   * once: store it in your secret manager (it verifies deliveries with `verifyWebhook`).
   *
   * Errors: `RequestValidationError`; `PermissionDeniedError` `insufficient_scope`, `permission_denied`.
   *
   * @example
   * const endpoint = await client.webhookEndpoints.create(partnerId, {
   *   url: 'https://example.com/webhooks/payments',
   *   event_kinds: ['payment.approved', 'payment.refunded'],
   * });
   * await secrets.put('payments-webhook-secret', endpoint.signing_secret);
   */
  create(
    partnerId: string,
    params: T.WebhookEndpointCreateParams,
    opts?: RequestOptions,
  ): APIPromise<T.WebhookEndpointCreated> {
    return APIPromise.run(() => {
      checkIds({ partnerId });
      const body = validate(WebhookEndpointCreateParams, params, 'webhook endpoint');
      const spec = requestOf(
        ENDPOINTS.createWebhookEndpoint,
        WebhookEndpointCreated,
        opts,
        [partnerId],
        body,
      );
      spec.reconcile = { check: 'list your endpoints in the admin portal before registering the URL again' };
      return this.client.request(spec);
    });
  }
}
