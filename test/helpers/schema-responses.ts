// The response schemas among the subjects of the schema tests (test/helpers/schema-subjects.ts).
import type { z } from 'zod';
import { RefundEventResource, WebhookEventEnvelope } from '../../src/schemas/zod/events.js';
import { ErrorBody } from '../../src/schemas/zod/fields.js';
import { LaunchSession, LaunchToken } from '../../src/schemas/zod/launch-tokens.js';
import { Location, LocationPage } from '../../src/schemas/zod/locations.js';
import { TokenResponse } from '../../src/schemas/zod/oauth.js';
import { Order, OrderCreated } from '../../src/schemas/zod/orders.js';
import { Payment, VoidResult } from '../../src/schemas/zod/payments.js';
import { Refund } from '../../src/schemas/zod/refunds.js';
import { WebhookEndpoint } from '../../src/schemas/zod/webhook-endpoints.js';
import { keysOf, resource, type SchemaSubject, TS, twin, UUID } from './schema-subjects.js';

/** Every response schema the client parses with, and the envelope and refund event of the mock. */
export function responseSubjects(): SchemaSubject[] {
  const created = () => ({
    order_id: UUID,
    status: 'open',
    total_cents: 100,
    created_at: TS,
    hosted_checkout_url: 'https://pay.example.com/c/1',
    expires_at: TS,
    extra: 1,
  });
  const payment = () => ({
    payment_id: UUID,
    status: 'approved',
    amount_cents: 100,
    method: 'card',
    created_at: TS,
  });
  const order = () => ({
    order_id: UUID,
    location_id: UUID,
    status: 'paid',
    total_cents: 100,
    description: null,
    external_reference: 'PO-1',
    customer_name: 'Ann',
    payments: [payment(), payment()],
    opened_by_m2m_client_id: null,
    created_at: TS,
    updated_at: TS,
  });
  const fullPayment = () => ({ ...payment(), order_id: UUID, processor_reference: null, updated_at: TS });
  const refund = () => ({
    refund_id: UUID,
    payment_id: UUID,
    order_id: UUID,
    status: 'pending',
    amount_cents: 5,
    reason: 'other',
    created_at: TS,
    processor_message: null,
  });
  const summary = () => ({
    location_id: UUID,
    name: 'Downtown',
    address: { line1: '1 Main St', city: 'X', zip: '1' },
    timezone: 'UTC',
    currency: 'USD',
    active: true,
  });
  const location = () => ({ ...summary(), organization_id: UUID, features: ['payments'], created_at: TS });
  const page = () => ({ items: [summary(), summary()], total: 2, limit: 50, offset: 0 });
  const endpoint = () => ({
    webhook_endpoint_id: UUID,
    partner_id: UUID,
    url: 'https://example.com/h',
    event_kinds: ['payment.approved', 'payment.some_new_kind'],
    description: null,
    signing_secret: 'whsec_1',
    created_at: TS,
  });
  const envelope = () => ({
    v: 1,
    event_id: 'evt_1',
    event_kind: 'payment.approved',
    occurred_at: '2026-05-12T10:15:30Z',
    partner_id: UUID,
    resource: resource(),
  });
  const refundResource = () => ({
    ...resource(),
    refund_id: 'r1',
    refund_status: 'approved',
    refund_amount_cents: 5,
  });
  const subject = (
    name: string,
    schema: z.ZodType,
    valid: () => Record<string, unknown>,
    extra: (string | number)[][] = [],
  ): SchemaSubject => ({
    name,
    kind: 'response',
    schema,
    compiled: twin(name),
    valid,
    paths: [...keysOf(valid), ...extra],
  });
  return [
    subject('OrderCreated', OrderCreated, created),
    subject('Order', Order, order, [
      ['payments', 0],
      ...Object.keys(payment()).map((k) => ['payments', 1, k]),
    ]),
    subject('Payment', Payment, fullPayment),
    subject('VoidResult', VoidResult, () => ({ payment_id: UUID, status: 'voided', voided_at: TS })),
    subject('Refund', Refund, refund),
    subject('Location', Location, location, [
      ['address', 'city'],
      ['features', 0],
    ]),
    subject('LocationPage', LocationPage, page, [
      ['items', 1],
      ...Object.keys(summary()).map((k) => ['items', 0, k]),
    ]),
    subject('LaunchToken', LaunchToken, () => ({
      launch_token: 'lt',
      launch_url: 'https://pos.example.com/l',
      location_id: UUID,
      role_slug: 'location_cashier',
      expires_at: TS,
    })),
    subject('LaunchSession', LaunchSession, () => ({
      session_token: 'st',
      user_id: 'u',
      location_id: UUID,
      role_slug: 'r',
      provisioned: true,
      expires_at: TS,
    })),
    subject('WebhookEndpoint', WebhookEndpoint, endpoint, [['event_kinds', 0]]),
    subject('TokenResponse', TokenResponse, () => ({
      access_token: 'at',
      expires_in: 3600,
      token_type: 'Bearer',
    })),
    subject('ErrorBody', ErrorBody, () => ({
      error: 'order_not_found',
      message: 'No such order',
      request_id: 'r',
    })),
    subject(
      'WebhookEventEnvelope',
      WebhookEventEnvelope,
      envelope,
      Object.keys(resource()).map((k) => ['resource', k]),
    ),
    subject('RefundEventResource', RefundEventResource, refundResource),
  ];
}
