// Registering a webhook endpoint from a test (`mock.webhooks.register`): the URL and event kinds are
// checked, and errors are MockControlErrors.
import { isSecureUrl } from '../../schemas/common.js';
import { EVENT_KINDS, type KnownEventKind } from '../../schemas/events.js';
import { addWebhookEndpoint } from '../domain/webhooks.js';
import { MockControlError } from '../engine/respond.js';
import type { MockState } from '../state.js';

/**
 * Control-side registration (`mock.webhooks.register`): unlike route 4.13 it accepts `http://`
 * receivers on loopback, so a test can listen on 127.0.0.1 without TLS.
 */
export function registerControl(
  state: MockState,
  input: { partnerId: string; url: string; eventKinds?: KnownEventKind[] },
  createdAt: string,
) {
  if (!isSecureUrl(input.url)) {
    throw new MockControlError(
      'webhook url must be https:// (http:// only for a loopback receiver)',
      'invalid',
    );
  }
  const unknown = (input.eventKinds ?? []).filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new MockControlError(`unknown event kinds: ${unknown.join(', ')}`, 'invalid');
  const record = addWebhookEndpoint(state, input, createdAt);
  return {
    webhook_endpoint_id: record.webhook_endpoint_id,
    signing_secret: record.signing_secret,
    url: record.url,
    event_kinds: record.event_kinds,
  };
}
