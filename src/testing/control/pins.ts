// Webhook endpoints pinned on a mock, which survive `POST /_mock/v1/reset` (the bin's
// `--forward-to` endpoint).
import type { MockService } from '../mock-service.js';

const pins = new WeakMap<MockService, Set<string>>();

/**
 * Keeps a webhook endpoint across `POST /_mock/v1/reset` (same id, same signing secret): the bin
 * pins its `--forward-to` endpoint, whose secret it printed at start.
 */
export function pinWebhookEndpoint(mock: MockService, endpointId: string): void {
  const set = pins.get(mock) ?? new Set<string>();
  set.add(endpointId);
  pins.set(mock, set);
}

/** The endpoints pinned on a mock. */
export function pinnedEndpoints(mock: MockService): string[] {
  return [...(pins.get(mock) ?? [])];
}
