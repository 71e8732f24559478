// The subjects of the schema tests: each request and response schema of the SDK (zod, from
// src/schemas/zod/), the check compiled from it (what the client runs), a valid value, and the paths
// whose values the cases of test/helpers/schema-cases.ts replace.
import type { z } from 'zod';
import * as compiledEvents from '../../src/schemas/compiled/events.js';
import * as compiledFields from '../../src/schemas/compiled/fields.js';
import * as compiledLaunchTokens from '../../src/schemas/compiled/launch-tokens.js';
import * as compiledLocations from '../../src/schemas/compiled/locations.js';
import * as compiledOauth from '../../src/schemas/compiled/oauth.js';
import * as compiledOrders from '../../src/schemas/compiled/orders.js';
import * as compiledPayments from '../../src/schemas/compiled/payments.js';
import * as compiledRefunds from '../../src/schemas/compiled/refunds.js';
import * as compiledWebhookEndpoints from '../../src/schemas/compiled/webhook-endpoints.js';
import { LaunchExchangeParams, LaunchTokenCreateParams } from '../../src/schemas/zod/launch-tokens.js';
import { LocationListParams } from '../../src/schemas/zod/locations.js';
import { OrderCreateRequest } from '../../src/schemas/zod/orders.js';
import { PaymentCreateParams } from '../../src/schemas/zod/payments.js';
import { RefundCreateParams } from '../../src/schemas/zod/refunds.js';
import { WebhookEndpointCreateParams } from '../../src/schemas/zod/webhook-endpoints.js';

import { responseSubjects } from './schema-responses.js';

export const UUID = '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11';
export const TS = '2026-11-22T03:00:00.000Z';

const line = () => ({
  description: 'Brake pad set',
  quantity: 2,
  unit_price_cents: 1_250,
  total_cents: 2_500,
  tax_amount_cents: 200,
  product_code: 'BP-1',
  unit_of_measure: 'EA',
});
const level3 = () => ({
  tax_amount_cents: 400,
  line_items: [line(), line()],
  customer_reference: 'PO-1',
});
export const resource = () => ({
  payment_id: UUID,
  order_id: UUID,
  status: 'approved',
  amount_cents: 100,
  method: 'card',
  external_reference: 'INV-1',
});

/**
 * A zod schema, the check compiled from it (what the SDK runs), a valid value (built fresh per case),
 * and the paths whose values the cases replace.
 */
export interface SchemaSubject {
  name: string;
  kind: 'request' | 'response';
  schema: z.ZodType;
  compiled: z.ZodType;
  valid: () => Record<string, unknown>;
  paths: (string | number)[][];
}

const COMPILED: Record<string, unknown> = {
  ...compiledEvents,
  ...compiledFields,
  ...compiledLaunchTokens,
  ...compiledLocations,
  ...compiledOauth,
  ...compiledOrders,
  ...compiledPayments,
  ...compiledRefunds,
  ...compiledWebhookEndpoints,
};
/** The compiled twin of an exported zod schema, by its name. */
export const twin = (name: string) => COMPILED[name] as z.ZodType;

const orderCreate = () => ({
  location_id: UUID,
  total_cents: 5_400,
  description: 'Brakes',
  external_reference: 'PO-77812',
  external_source: 'erp',
  external_id: 'e-1',
  customer_name: 'Ann',
  customer_phone: '+15551234567',
  customer_email: 'ann@example.com',
  department_id: UUID,
  metadata: { ticket: 42, tags: ['rush', null], nested: { ok: true } },
  level3: level3(),
  return_url: 'https://shop.example.com/ok',
  cancel_url: 'https://shop.example.com/no',
});
const l3Paths = (prefix: (string | number)[]) => [
  [...prefix],
  [...prefix, 'tax_amount_cents'],
  [...prefix, 'line_items'],
  [...prefix, 'customer_reference'],
  [...prefix, 'extra'],
  ...Object.keys(line()).map((k) => [...prefix, 'line_items', 1, k]),
  [...prefix, 'line_items', 0],
  [...prefix, 'line_items', 1, 'extra'],
];
export const keysOf = (make: () => Record<string, unknown>) => [
  ...Object.keys(make()).map((k) => [k]),
  ['extra'],
  ['totalCents'],
];

export const SUBJECTS: SchemaSubject[] = [
  {
    name: 'OrderCreateRequest',
    kind: 'request',
    schema: OrderCreateRequest,
    compiled: twin('OrderCreateRequest'),
    valid: orderCreate,
    paths: [...keysOf(orderCreate), ...l3Paths(['level3']), ['metadata', 'tags', 0], ['metadata', 'nested']],
  },
  {
    name: 'PaymentCreateParams',
    kind: 'request',
    schema: PaymentCreateParams,
    compiled: twin('PaymentCreateParams'),
    valid: () => ({ method: 'card', amount_cents: 5_400, level3: level3() }),
    paths: [['method'], ['amount_cents'], ['extra'], ...l3Paths(['level3'])],
  },
  {
    name: 'RefundCreateParams',
    kind: 'request',
    schema: RefundCreateParams,
    compiled: twin('RefundCreateParams'),
    valid: () => ({ amount_cents: 100, reason: 'duplicate' }),
    paths: [['amount_cents'], ['reason'], ['extra']],
  },
  {
    name: 'LaunchTokenCreateParams',
    kind: 'request',
    schema: LaunchTokenCreateParams,
    compiled: twin('LaunchTokenCreateParams'),
    valid: () => ({ location_id: UUID, role_slug: 'location_cashier', user_ref: 'staff-42' }),
    paths: [['location_id'], ['role_slug'], ['user_ref'], ['extra']],
  },
  {
    name: 'LaunchExchangeParams',
    kind: 'request',
    schema: LaunchExchangeParams,
    compiled: twin('LaunchExchangeParams'),
    valid: () => ({ launch_token: 'lt_1' }),
    paths: [['launch_token'], ['extra']],
  },
  {
    name: 'WebhookEndpointCreateParams',
    kind: 'request',
    schema: WebhookEndpointCreateParams,
    compiled: twin('WebhookEndpointCreateParams'),
    valid: () => ({ url: 'https://example.com/h', event_kinds: ['payment.approved'], description: 'd' }),
    paths: [['url'], ['event_kinds'], ['event_kinds', 0], ['event_kinds', 1], ['description'], ['extra']],
  },
  {
    name: 'LocationListParams',
    kind: 'request',
    schema: LocationListParams,
    compiled: twin('LocationListParams'),
    valid: () => ({ limit: 50, offset: 0, search: 'downtown' }),
    paths: [['limit'], ['offset'], ['search'], ['extra']],
  },
  ...responseSubjects(),
];
