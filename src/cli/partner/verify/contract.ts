// The contract verify holds an environment to, written from the spec (not from the SDK's schemas,
// so that neither can hide a drift of the other): a small shape language and the fields of every
// answer of spec sections 2, 4, 5, 6 and 7. Problems name the field and the kind, never a value.

/** What one field must be. `text` is a string or null (an optional field the caller left out). */
export type Rule =
  | 'uuid'
  | 'string'
  | 'text'
  | 'int'
  | 'bool'
  | 'timestamp'
  | 'url'
  | { is: string | number | boolean }
  | { oneOf: readonly string[] }
  | { shape: Shape }
  | { items: Rule }
  | { optional: Rule };

export type Shape = Readonly<Record<string, Rule>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a fraction';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The problems of `value` against `rule` at `at` (empty when it fits). */
export function ruleProblems(value: unknown, rule: Rule, at: string): string[] {
  if (typeof rule === 'object' && 'optional' in rule) {
    return value === undefined ? [] : ruleProblems(value, rule.optional, at);
  }
  if (value === undefined) return [`${at}: missing`];
  const bad = (what: string) => [`${at}: expected ${what}, got ${kind(value)}`];
  if (typeof rule === 'string') {
    switch (rule) {
      case 'uuid':
        return typeof value === 'string' && UUID.test(value) ? [] : bad('a UUID (spec 1.5)');
      case 'string':
        return typeof value === 'string' ? [] : bad('a string');
      case 'text':
        return typeof value === 'string' || value === null ? [] : bad('a string');
      case 'int':
        return Number.isSafeInteger(value) ? [] : bad('an integer (spec 1.4)');
      case 'bool':
        return typeof value === 'boolean' ? [] : bad('a boolean');
      case 'timestamp':
        return typeof value === 'string' && ISO.test(value) ? [] : bad('an ISO 8601 timestamp (spec 1.3)');
      case 'url':
        return typeof value === 'string' && URL.canParse(value) ? [] : bad('a URL');
    }
  }
  if ('is' in rule) return value === rule.is ? [] : [`${at}: expected ${JSON.stringify(rule.is)}`];
  if ('oneOf' in rule) {
    return typeof value === 'string' && rule.oneOf.includes(value)
      ? []
      : [
          `${at}: expected one of ${rule.oneOf.join(', ')}${typeof value === 'string' ? `, got "${value}"` : ''}`,
        ];
  }
  if ('items' in rule) {
    if (!Array.isArray(value)) return bad('an array');
    return value.flatMap((item, i) => ruleProblems(item, rule.items, `${at}[${i}]`));
  }
  return shapeProblems(value, rule.shape, at);
}

/** The problems of an object against a shape; `at` prefixes the field names. */
export function shapeProblems(value: unknown, shape: Shape, at = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`${at || 'body'}: expected a JSON object, got ${kind(value)}`];
  }
  const record = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([field, rule]) =>
    ruleProblems(record[field], rule, at ? `${at}.${field}` : field),
  );
}

const PAYMENT_STATUSES = [
  'pending',
  'approved',
  'settled',
  'declined',
  'failed',
  'voided',
  'refunded',
  'cancelled',
  'expired',
];
const ORDER_STATUSES = ['open', 'pending', 'paid', 'partially_paid', 'voided', 'refunded', 'cancelled'];
const REFUND_STATUSES = ['pending', 'approved', 'failed'];
const REASONS = ['customer_request', 'duplicate', 'fraudulent', 'other'];

/** Spec 2.6 and 7: every error body. */
export const ERROR: Shape = { error: 'string', message: 'string', request_id: 'string' };

/** Spec 2.6: the page envelope. */
export const PAGE: Shape = { items: { items: { shape: {} } }, total: 'int', limit: 'int', offset: 'int' };

/** Spec 5.3: the token answer. */
export const TOKEN: Shape = { access_token: 'string', expires_in: 'int', token_type: 'string' };

/** Spec 4.1: the created order. */
export const ORDER_CREATED: Shape = {
  order_id: 'uuid',
  status: { is: 'open' },
  total_cents: 'int',
  created_at: 'timestamp',
};

/** Spec 4.1 and 4.11: with return and cancel URLs, the hosted checkout URL (nullable) and its expiry. */
export const ORDER_WITH_CHECKOUT: Shape = {
  ...ORDER_CREATED,
  hosted_checkout_url: 'text',
  expires_at: 'timestamp',
};

/** Spec 2.1: an item of an order's `payments`. */
const ORDER_PAYMENT: Shape = {
  payment_id: 'uuid',
  status: { oneOf: PAYMENT_STATUSES },
  amount_cents: 'int',
  method: 'string',
  created_at: 'timestamp',
};

/** Spec 2.1 and 4.2: the order as read. */
export const ORDER: Shape = {
  order_id: 'uuid',
  location_id: 'uuid',
  status: { oneOf: ORDER_STATUSES },
  total_cents: 'int',
  description: 'text',
  external_reference: 'text',
  // verify sends no customer name: an absent value may be left out rather than null.
  customer_name: { optional: 'text' },
  payments: { items: { shape: ORDER_PAYMENT } },
  created_at: 'timestamp',
  updated_at: 'timestamp',
};

/** Spec 4.3: the created payment. */
export const PAYMENT_CREATED: Shape = {
  payment_id: 'uuid',
  order_id: 'uuid',
  status: { is: 'pending' },
  amount_cents: 'int',
  method: { is: 'card' },
  created_at: 'timestamp',
};

/** Spec 2.2 and 4.4: the payment as read (processor_reference may still be null while pending). */
export const PAYMENT: Shape = {
  ...PAYMENT_CREATED,
  status: { oneOf: PAYMENT_STATUSES },
  processor_reference: 'text',
  updated_at: 'timestamp',
};

/** Spec 4.5: the void answer. */
export const VOID: Shape = { payment_id: 'uuid', status: { is: 'voided' }, voided_at: 'timestamp' };

/** Spec 2.3 and 4.6: the created refund. */
export const REFUND_CREATED: Shape = {
  refund_id: 'uuid',
  payment_id: 'uuid',
  order_id: 'uuid',
  status: { is: 'pending' },
  amount_cents: 'int',
  reason: { oneOf: REASONS },
  created_at: 'timestamp',
};

/** Spec 2.3 and 4.7: the refund as read. */
export const REFUND: Shape = { ...REFUND_CREATED, status: { oneOf: REFUND_STATUSES } };

/** Spec 2.4 and 4.8: a listed location. */
export const LOCATION_SUMMARY: Shape = {
  location_id: 'uuid',
  name: 'string',
  address: { shape: { line1: 'text', city: 'text', state: 'text', zip: 'text', country: 'text' } },
  timezone: 'string',
  currency: 'string',
  active: 'bool',
};

/** Spec 2.4 and 4.9: a location read alone. */
export const LOCATION: Shape = {
  ...LOCATION_SUMMARY,
  organization_id: 'uuid',
  features: { items: 'string' },
  created_at: 'timestamp',
};

/** Spec 6.2: the event kinds. */
export const EVENT_KINDS = [
  'payment.approved',
  'payment.refunded',
  'payment.voided',
  'payment.cancelled',
  'payment.expired',
  'payment.reversal_settled',
  'payment.reversal_failed',
];

/** Spec 6.3: the event envelope. */
export const EVENT: Shape = {
  v: { is: 1 },
  event_id: 'string',
  event_kind: { oneOf: EVENT_KINDS },
  occurred_at: 'timestamp',
  partner_id: 'uuid',
  resource: {
    shape: {
      payment_id: 'uuid',
      order_id: 'uuid',
      status: { oneOf: PAYMENT_STATUSES },
      amount_cents: 'int',
      method: 'string',
      external_reference: 'text',
    },
  },
};
