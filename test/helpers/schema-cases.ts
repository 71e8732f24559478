// Inputs for the recorded-outcome test of the SDK's schemas (test/resources/schema-outcomes.test.ts):
// for every request and response schema, a valid value with each field in turn replaced by each of
// a list of awkward values, and mutants that change several fields at once (a seeded generator, so
// the list is the same on every run).
import type { z } from 'zod';
import { TokenResponse } from '../../src/core/auth/strategies.js';
import { RefundEventResource, WebhookEventEnvelope } from '../../src/schemas/events.js';
import { ErrorBody } from '../../src/schemas/fields.js';
import {
  LaunchExchangeParams,
  LaunchSession,
  LaunchToken,
  LaunchTokenCreateParams,
} from '../../src/schemas/launch-tokens.js';
import { Location, LocationListParams, LocationPage } from '../../src/schemas/locations.js';
import { Order, OrderCreated, OrderCreateRequest } from '../../src/schemas/orders.js';
import { Payment, PaymentCreateParams, VoidResult } from '../../src/schemas/payments.js';
import { Refund, RefundCreateParams } from '../../src/schemas/refunds.js';
import { WebhookEndpoint, WebhookEndpointCreateParams } from '../../src/schemas/webhook-endpoints.js';

const UUID = '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11';
const TS = '2026-11-22T03:00:00.000Z';

class Ticket {
  id = 7;
}
const withGetter = () =>
  Object.defineProperty({}, 'x', { get: () => 1, enumerable: true }) as Record<string, unknown>;
const circular = () => {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
};

/** Awkward values, each tried in every field. Functions build a fresh value per use. */
const VALUES: [name: string, make: () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['true', () => true],
  ['0', () => 0],
  ['-0', () => -0],
  ['1', () => 1],
  ['-1', () => -1],
  ['1.5', () => 1.5],
  ['NaN', () => Number.NaN],
  ['Infinity', () => Number.POSITIVE_INFINITY],
  ['2^53', () => 2 ** 53],
  ['201', () => 201],
  ['bigint', () => 10n],
  ['empty string', () => ''],
  ['x', () => 'x'],
  ['numeric string', () => '1000'],
  ['41 characters', () => 'y'.repeat(41)],
  ['40 characters', () => 'y'.repeat(40)],
  ['uuid', () => UUID],
  ['upper-case uuid', () => UUID.toUpperCase()],
  ['uuid with a suffix', () => `${UUID}/x`],
  ['https url', () => 'https://shop.example.com/ok'],
  ['loopback http url', () => 'http://127.0.0.1:3000/ok'],
  ['http url', () => 'http://shop.example.com/ok'],
  ['javascript url', () => 'javascript:alert(1)'],
  ['email', () => 'ann@example.com'],
  ['E.164 phone', () => '+15551234567'],
  ['card', () => 'card'],
  ['refund reason', () => 'duplicate'],
  ['event kind', () => 'payment.approved'],
  ['timestamp', () => TS],
  ['empty array', () => []],
  ['array of one', () => [1]],
  ['array of an event kind', () => ['payment.voided']],
  ['empty object', () => ({})],
  ['object', () => ({ a: 1, b: 'two', c: [true, null] })],
  ['Date', () => new Date(0)],
  ['class instance', () => new Ticket()],
  ['getter', withGetter],
  ['circular', circular],
  ['symbol', () => Symbol('s')],
  ['function', () => () => 1],
];

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
const resource = () => ({
  payment_id: UUID,
  order_id: UUID,
  status: 'approved',
  amount_cents: 100,
  method: 'card',
  external_reference: 'INV-1',
});

/** A schema, a valid value (built fresh per case), and the paths whose values the cases replace. */
export interface SchemaSubject {
  name: string;
  kind: 'request' | 'response';
  schema: z.ZodType;
  valid: () => Record<string, unknown>;
  paths: (string | number)[][];
}

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
const keysOf = (make: () => Record<string, unknown>) => [
  ...Object.keys(make()).map((k) => [k]),
  ['extra'],
  ['totalCents'],
];

export const SUBJECTS: SchemaSubject[] = [
  {
    name: 'OrderCreateRequest',
    kind: 'request',
    schema: OrderCreateRequest,
    valid: orderCreate,
    paths: [...keysOf(orderCreate), ...l3Paths(['level3']), ['metadata', 'tags', 0], ['metadata', 'nested']],
  },
  {
    name: 'PaymentCreateParams',
    kind: 'request',
    schema: PaymentCreateParams,
    valid: () => ({ method: 'card', amount_cents: 5_400, level3: level3() }),
    paths: [['method'], ['amount_cents'], ['extra'], ...l3Paths(['level3'])],
  },
  {
    name: 'RefundCreateParams',
    kind: 'request',
    schema: RefundCreateParams,
    valid: () => ({ amount_cents: 100, reason: 'duplicate' }),
    paths: [['amount_cents'], ['reason'], ['extra']],
  },
  {
    name: 'LaunchTokenCreateParams',
    kind: 'request',
    schema: LaunchTokenCreateParams,
    valid: () => ({ location_id: UUID, role_slug: 'location_cashier', user_ref: 'staff-42' }),
    paths: [['location_id'], ['role_slug'], ['user_ref'], ['extra']],
  },
  {
    name: 'LaunchExchangeParams',
    kind: 'request',
    schema: LaunchExchangeParams,
    valid: () => ({ launch_token: 'lt_1' }),
    paths: [['launch_token'], ['extra']],
  },
  {
    name: 'WebhookEndpointCreateParams',
    kind: 'request',
    schema: WebhookEndpointCreateParams,
    valid: () => ({ url: 'https://example.com/h', event_kinds: ['payment.approved'], description: 'd' }),
    paths: [['url'], ['event_kinds'], ['event_kinds', 0], ['event_kinds', 1], ['description'], ['extra']],
  },
  {
    name: 'LocationListParams',
    kind: 'request',
    schema: LocationListParams,
    valid: () => ({ limit: 50, offset: 0, search: 'downtown' }),
    paths: [['limit'], ['offset'], ['search'], ['extra']],
  },
  ...responses(),
];

function responses(): SchemaSubject[] {
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
  ): SchemaSubject => ({ name, kind: 'response', schema, valid, paths: [...keysOf(valid), ...extra] });
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

/** Sets the value at `path` (creating nothing: a missing parent leaves the value as is). */
function setAt(target: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean) {
  if (path.length === 0) return value;
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return target;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (node === null || typeof node !== 'object') return target;
  const last = path[path.length - 1]!;
  if (remove) delete (node as Record<string | number, unknown>)[last];
  else (node as Record<string | number, unknown>)[last] = value;
  return target;
}

/** A small seeded generator (mulberry32): the same mutants on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SchemaCase {
  /** Unique within its subject. */
  name: string;
  input: () => unknown;
}

/**
 * Every case of a subject in groups (the row of one path, the mutants): the valid value and the
 * whole value replaced, then for each path the value removed and replaced by each awkward value, then
 * random mutants that change up to four paths.
 */
export function caseGroupsOf(subject: SchemaSubject, mutants = 120): Record<string, SchemaCase[]> {
  const groups: Record<string, SchemaCase[]> = {
    valid: [{ name: 'valid', input: subject.valid }],
    '(whole value)': VALUES.map(([name, make]) => ({ name: `whole value = ${name}`, input: make })),
  };
  for (const path of subject.paths) {
    const at = path.join('.');
    groups[at] = [
      { name: `${at} removed`, input: () => setAt(subject.valid(), path, undefined, true) },
      ...VALUES.map(([name, make]) => ({
        name: `${at} = ${name}`,
        input: () => setAt(subject.valid(), path, make(), false),
      })),
    ];
  }
  const rand = random(subject.name.length * 7919 + subject.paths.length);
  groups['(mutants)'] = Array.from({ length: mutants }, (_, i) => {
    const changes = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => ({
      path: subject.paths[Math.floor(rand() * subject.paths.length)]!,
      value: VALUES[Math.floor(rand() * VALUES.length)]!,
      remove: rand() < 0.15,
    }));
    const what = changes.map((c) => `${c.path.join('.')} ${c.remove ? 'removed' : `= ${c.value[0]}`}`);
    return {
      name: `mutant ${i}: ${what.join(', ')}`,
      input: () => {
        let value: unknown = subject.valid();
        for (const c of changes)
          value = setAt(value as Record<string, unknown>, c.path, c.value[1](), c.remove);
        return value;
      },
    };
  });
  return groups;
}
