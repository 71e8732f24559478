import { describe, expectTypeOf, it } from 'vitest';
import {
  createDeduplicator,
  type DedupeOutcome,
  type EventKind,
  type EventResource,
  type KnownEventKind,
  type SignedWebhookPayload,
  signWebhookPayload,
  type UnknownWebhookEvent,
  verifyWebhook,
  verifyWebhookRequest,
  type WebhookEvent,
  type WebhookEventOf,
} from '../../src/webhooks/index.js';

declare const event: WebhookEvent;

describe('WebhookEvent', () => {
  it('is what verifyWebhook and verifyWebhookRequest return', () => {
    expectTypeOf(verifyWebhook).returns.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(verifyWebhookRequest).returns.toEqualTypeOf<Promise<WebhookEvent>>();
  });

  it('narrows on event_kind: the kind becomes the literal, the resource stays typed', () => {
    if (event.event_kind === 'payment.approved') {
      expectTypeOf<typeof event.event_kind>().toEqualTypeOf<'payment.approved'>();
      expectTypeOf(event.resource).toEqualTypeOf<EventResource>();
      expectTypeOf(event.resource.order_id).toEqualTypeOf<string>();
      expectTypeOf(event.resource.amount_cents).toEqualTypeOf<number>();
    }
    switch (event.event_kind) {
      case 'payment.refunded':
        expectTypeOf<typeof event.event_kind>().toEqualTypeOf<'payment.refunded'>();
        expectTypeOf(event).not.toExtend<WebhookEventOf<'payment.voided'>>();
        break;
      case 'payment.reversal_failed':
        expectTypeOf<typeof event.event_kind>().toEqualTypeOf<'payment.reversal_failed'>();
        break;
    }
  });

  it('narrows to the known kind plus the open member (TypeScript cannot exclude a literal from string)', () => {
    if (event.event_kind === 'payment.voided') {
      expectTypeOf<typeof event>().toEqualTypeOf<WebhookEventOf<'payment.voided'> | UnknownWebhookEvent>();
    }
  });

  it('allows kinds this SDK does not know yet', () => {
    const later: WebhookEvent = {
      v: 1,
      event_id: 'evt_1',
      event_kind: 'payment.disputed',
      occurred_at: '2026-05-12T10:00:00Z',
      partner_id: 'p',
      resource: { payment_id: 'a', order_id: 'b', status: 'settled', amount_cents: 1, method: 'card' },
    };
    expectTypeOf(later).toExtend<WebhookEvent>();
    expectTypeOf<UnknownWebhookEvent>().toExtend<WebhookEvent>();
    if (event.event_kind === 'payment.failed') {
      expectTypeOf<typeof event.event_kind>().toEqualTypeOf<'payment.failed'>();
      expectTypeOf(event.resource.payment_id).toEqualTypeOf<string>();
    }
    expectTypeOf(event.event_kind).toExtend<string>();
  });

  it('types every field of the envelope (none collapses to unknown)', () => {
    expectTypeOf(event.v).toEqualTypeOf<1>(); // spec 6.3: version 1; another is refused
    expectTypeOf(event.event_id).toEqualTypeOf<string>();
    expectTypeOf(event.occurred_at).toEqualTypeOf<string>();
    expectTypeOf(event.partner_id).toEqualTypeOf<string>();
    expectTypeOf(event.resource.external_reference).toEqualTypeOf<string | null | undefined>();
  });

  it('keeps the known kinds for autocomplete in EventKind', () => {
    expectTypeOf<KnownEventKind>().toEqualTypeOf<
      | 'payment.approved'
      | 'payment.refunded'
      | 'payment.voided'
      | 'payment.cancelled'
      | 'payment.expired'
      | 'payment.reversal_settled'
      | 'payment.reversal_failed'
    >();
    expectTypeOf<'payment.approved'>().toExtend<EventKind>();
    expectTypeOf<'payment.anything_new'>().toExtend<EventKind>();
  });
});

describe('the other exports', () => {
  it('take the documented arguments', () => {
    expectTypeOf(verifyWebhook).toBeCallableWith(Buffer.from(''), undefined, 'secret');
    expectTypeOf(verifyWebhook).toBeCallableWith('', ['hmac-sha256=00'], ['new', 'old']);
    expectTypeOf(verifyWebhook).toBeCallableWith(new Uint8Array(), null, [undefined, 'old']);
    // @ts-expect-error a parsed object is not a raw body
    verifyWebhook({ v: 1 }, 'hmac-sha256=00', 'secret');
    expectTypeOf(signWebhookPayload).returns.toEqualTypeOf<SignedWebhookPayload>();
  });

  it('runOnce returns the handler result for a first delivery', async () => {
    const outcome = await createDeduplicator().runOnce('evt_1', async () => 42);
    expectTypeOf(outcome).toEqualTypeOf<DedupeOutcome<number>>();
    if (!outcome.duplicate) expectTypeOf(outcome.result).toEqualTypeOf<number>();
  });
});
