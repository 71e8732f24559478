/** A valid envelope of spec 6.3 for the webhook tests, with the ids of test/fixtures/webhooks. */
export const SAMPLE_PARTNER_ID = '3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21';

/**
 * A `payment.approved` event: `changes` replace top-level fields, `resource` fields of the resource.
 */
export function sampleEvent(changes: Record<string, unknown> = {}, resource: Record<string, unknown> = {}) {
  return {
    v: 1,
    event_id: 'evt_sample',
    event_kind: 'payment.approved',
    occurred_at: '2026-05-12T10:15:30Z',
    partner_id: SAMPLE_PARTNER_ID,
    resource: {
      payment_id: 'b3a1f2c4-5d6e-4f70-8a9b-0c1d2e3f4a5b',
      order_id: '9e8d7c6b-5a49-4382-b716-0f1e2d3c4b5a',
      status: 'approved',
      amount_cents: 12500,
      method: 'card',
      ...resource,
    },
    ...changes,
  };
}
