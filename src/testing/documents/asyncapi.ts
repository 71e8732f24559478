// The AsyncAPI 2.6 document of the webhook events that the mock serves, generated from the event
// schemas of src/schemas/events.ts.
import { EVENT_KINDS, REFUND_EVENT_KINDS } from '../../schemas/events.js';
import { VERSION } from '../../version.js';
import { eventEnvelopeSchema, refundResourceSchema } from './schemas.js';

const FIRED_WHEN: Record<(typeof EVENT_KINDS)[number], string> = {
  'payment.approved': 'The processor approved the payment (also in the hosted-form flow).',
  'payment.refunded': 'The processor confirmed a refund.',
  'payment.voided': 'The payment was voided before settlement.',
  'payment.cancelled': 'A pending payment was cancelled by an operator.',
  'payment.expired': "A pending payment's time-to-live elapsed without resolution.",
  'payment.reversal_settled': 'A reversal (refund of a settled charge) was confirmed.',
  'payment.reversal_failed': 'A reversal was rejected by the processor; manual intervention required.',
};

const messageName = (kind: string) =>
  kind
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * The AsyncAPI 2.6 description of the webhook events (spec section 6), with the envelope schema
 * converted from src/schemas/events.ts.
 */
export function buildAsyncApiDocument(): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const kind of EVENT_KINDS) {
    const name = messageName(kind);
    channels[kind] = {
      description: FIRED_WHEN[kind],
      subscribe: {
        operationId: `on${name}`,
        summary: FIRED_WHEN[kind],
        message: { $ref: `#/components/messages/${name}` },
      },
    };
    messages[name] = {
      messageId: name,
      name: kind,
      title: kind,
      contentType: 'application/json',
      headers: { $ref: '#/components/schemas/DeliveryHeaders' },
      payload: {
        allOf: [
          { $ref: '#/components/schemas/WebhookEventEnvelope' },
          { type: 'object', properties: { event_kind: { const: kind } } },
          // Refund events carry the refund beside the payment: refund_id, refund_status, refund_amount_cents.
          ...((REFUND_EVENT_KINDS as readonly string[]).includes(kind)
            ? [
                {
                  type: 'object',
                  properties: { resource: { $ref: '#/components/schemas/RefundEventResource' } },
                },
              ]
            : []),
        ],
      },
    };
  }
  return {
    asyncapi: '2.6.0',
    id: 'urn:partner-payments:webhooks',
    tags: [{ name: 'payments', description: 'Payment state changes' }],
    info: {
      title: 'Partner Payments Service webhooks',
      version: VERSION,
      description:
        'Signed HTTP POST deliveries, at least once. Retries after 1 min, 5 min, 30 min, 2 h and 12 h; after 6 failed attempts the delivery goes to a dead-letter queue.',
      license: { name: 'MIT' },
      contact: {
        name: 'Partner support',
        url: 'https://payments.test/support',
        email: 'support@payments.test',
      },
    },
    defaultContentType: 'application/json',
    channels,
    components: {
      schemas: {
        WebhookEventEnvelope: eventEnvelopeSchema(),
        RefundEventResource: refundResourceSchema(),
        DeliveryHeaders: {
          type: 'object',
          properties: {
            'X-Service-Signature': {
              type: 'string',
              pattern: '^hmac-sha256=[0-9a-f]{64}$',
              description: 'Lowercase hex HMAC-SHA256 of the raw body keyed with the endpoint secret',
            },
          },
          required: ['X-Service-Signature'],
        },
      },
      messages,
    },
  };
}
