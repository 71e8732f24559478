import { describe, expect, it } from 'vitest';
import { trigger } from '../../src/cli/mock/trigger.js';
import { EVENT_KINDS } from '../../src/schemas/events.js';
import { useMock } from '../testing/helpers.js';

const h = useMock({ clock: { realTime: true } });

describe('trigger (the bin subcommand) against a running mock', () => {
  it.each(EVENT_KINDS)('produces %s over the API and control API, and returns its event id', async (kind) => {
    const { eventId, paymentId } = await trigger(h.server.baseUrl, kind);
    const event = h.mock.webhooks.events().find((e) => e.event_id === eventId);
    expect(event).toMatchObject({
      event_kind: kind,
      resource: expect.objectContaining({ payment_id: paymentId }),
    });
  });
});
