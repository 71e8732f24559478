// The SDK's zod schemas as JSON Schema for the mock's OpenAPI and AsyncAPI documents: the request
// and response components, the webhook envelope and the refund event resource.
import { z } from 'zod';
import { RefundEventResource, WebhookEventEnvelope } from '../../schemas/zod/events.js';
import { ErrorBody } from '../../schemas/zod/fields.js';
import {
  LaunchExchangeParams,
  LaunchSession,
  LaunchToken,
  LaunchTokenCreateParams,
} from '../../schemas/zod/launch-tokens.js';
import { Location, LocationPage } from '../../schemas/zod/locations.js';
import { TokenResponse } from '../../schemas/zod/oauth.js';
import { Order, OrderCreated, OrderCreateParams } from '../../schemas/zod/orders.js';
import { Payment, PaymentCreateParams, VoidResult } from '../../schemas/zod/payments.js';
import { Refund, RefundCreateParams } from '../../schemas/zod/refunds.js';
import { WebhookEndpoint, WebhookEndpointCreateParams } from '../../schemas/zod/webhook-endpoints.js';

/** Request schemas are described as the service accepts them, responses as it answers. */
export const REQUEST_SCHEMAS = {
  OrderCreateParams,
  PaymentCreateParams,
  RefundCreateParams,
  LaunchTokenCreateParams,
  LaunchExchangeParams,
  WebhookEndpointCreateParams,
};
const RESPONSES = {
  OrderCreated,
  Order,
  Payment,
  VoidResult,
  Refund,
  Location,
  LocationPage,
  LaunchToken,
  LaunchSession,
  WebhookEndpoint,
  TokenResponse,
  ErrorBody,
};

/** A request body schema of the route table. */
export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;
export type SchemaName = RequestSchemaName | keyof typeof RESPONSES;

/** One zod schema as JSON Schema, without the `$schema` key (documents declare their own dialect). */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', target: 'draft-2020-12' | 'draft-7') {
  const out = z.toJSONSchema(schema, { io, target, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** The ids spec 2 types as UUIDs. */
const UUID_IDS = new Set([
  'order_id',
  'payment_id',
  'refund_id',
  'location_id',
  'organization_id',
  'partner_id',
  'department_id',
]);

/** Whether a JSON Schema is a string, or a string or null. */
const isString = (s: Record<string, unknown>) =>
  s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));

/**
 * A JSON Schema with the wire types of spec 2 that the SDK's lenient zod schemas leave out (they
 * accept what a newer service might send): cents and `expires_in` are integers, the ids of spec 2
 * `format: uuid`, timestamps (`*_at`) `format: date-time`. Generated clients in other languages read
 * these: cents as an integer, not a float.
 */
export function wireTyped(schema: unknown, name = ''): unknown {
  if (Array.isArray(schema)) return schema.map((s) => wireTyped(s));
  if (!schema || typeof schema !== 'object') return schema;
  const s = { ...(schema as Record<string, unknown>) };
  if ((name.endsWith('_cents') || name === 'expires_in') && s.type === 'number') s.type = 'integer';
  if (UUID_IDS.has(name) && isString(s) && s.format === undefined) s.format = 'uuid';
  if (name.endsWith('_at') && isString(s) && s.format === undefined) s.format = 'date-time';
  for (const [key, value] of Object.entries(s)) {
    if (key === 'properties' && value && typeof value === 'object') {
      s.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([prop, sub]) => [prop, wireTyped(sub, prop)]),
      );
    } else if (key !== 'enum' && key !== 'required' && value && typeof value === 'object') {
      s[key] = wireTyped(value);
    }
  }
  return s;
}

/** Every request and response schema, converted from src/schemas (the one source of truth). */
export function componentSchemas(target: 'draft-2020-12' | 'draft-7' = 'draft-2020-12') {
  const out: Record<string, unknown> = {};
  // Requests as the service accepts them (its answer to a malformed id is documented, not refused).
  for (const [name, schema] of Object.entries(REQUEST_SCHEMAS))
    out[name] = jsonSchemaOf(schema, 'input', target);
  for (const [name, schema] of Object.entries(RESPONSES))
    out[name] = wireTyped(jsonSchemaOf(schema, 'output', target));
  return out;
}

/** The resource of a refund event as JSON Schema draft 7: the payment plus the refund's fields. */
export function refundResourceSchema() {
  return jsonSchemaOf(RefundEventResource, 'output', 'draft-7');
}

/** The webhook envelope as JSON Schema draft 7 (AsyncAPI 2.6's schema dialect). */
export function eventEnvelopeSchema() {
  return jsonSchemaOf(WebhookEventEnvelope, 'output', 'draft-7');
}
