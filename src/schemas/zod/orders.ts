// The zod schemas of orders (spec 4.1, 4.2): the create body and its hosted-checkout rule, the
// creation response, and the order with its payments. The source of the types (src/schemas/orders.ts),
// of the checks the client runs (src/schemas/compiled/orders.ts), and of the mock's checks and documents.
import * as z from 'zod';
import { ORDER_STATUSES } from '../constants.js';
import { hostedCheckoutIssues } from '../rules/orders.js';
import {
  e164Phone,
  email,
  openEnum,
  positiveCents,
  ruleCheck,
  secureUrl,
  timestamp,
  uuid,
} from './fields.js';
import { Level3 } from './level3.js';
import { metadata } from './metadata.js';
import { PaymentStatus } from './payments.js';

/** An order's status, open for values added later. */
export const OrderStatus = openEnum(ORDER_STATUSES);
/** The body of `POST /pos/v1/orders`. */
export const OrderCreateParams = z.strictObject({
  /** Location of origin; must be within the partner's scope and have the `payments` feature. */
  location_id: uuid,
  /** The order's total in integer cents; greater than 0. */
  total_cents: positiveCents,
  /** @default undefined (not sent) */
  description: z.string().optional(),
  /**
   * The partner's own reference (invoice or PO number); forwarded to the processor as customer reference.
   * @default undefined (not sent)
   */
  external_reference: z.string().optional(),
  /** @default undefined (not sent) */
  external_source: z.string().optional(),
  /** @default undefined (not sent) */
  external_id: z.string().optional(),
  /** @default undefined (not sent) */
  customer_name: z.string().optional(),
  /** E.164, for an SMS receipt. @default undefined (no SMS receipt) */
  customer_phone: e164Phone.optional(),
  /** For an email receipt. @default undefined (no email receipt) */
  customer_email: email.optional(),
  /** @default undefined (not sent) */
  department_id: uuid.optional(),
  /**
   * Your own key/value pairs: a plain object of JSON values (strings, finite numbers, booleans,
   * null, arrays and plain objects of them), at most 10 levels deep and 16,384 bytes of JSON, sent
   * exactly as given. A `Date`, `BigInt`, function, `undefined`, class instance, circular value or
   * `__proto__` key is refused with a `RequestValidationError` naming its path.
   * @default undefined (not sent)
   */
  metadata: metadata.optional(),
  /** Level 3 data, which a payment may override. @default undefined (not sent) */
  level3: Level3.optional(),
  /** Hosted checkout: where the browser goes after a successful payment. @default undefined (no hosted checkout) */
  return_url: secureUrl.optional(),
  /** Hosted checkout: where the browser goes when the customer cancels. @default undefined (no hosted checkout) */
  cancel_url: secureUrl.optional(),
});
/**
 * What the SDK checks before sending an order: {@link OrderCreateParams} plus one cross-field rule.
 * With only one of `return_url` and `cancel_url` the service creates the order without a hosted
 * checkout page (no `hosted_checkout_url`), which is never what the caller meant: refused.
 */
export const OrderCreateRequest = OrderCreateParams.check(ruleCheck(hostedCheckoutIssues));

/** The response of `POST /pos/v1/orders`. */
export const OrderCreated = z.looseObject({
  order_id: z.string(),
  status: OrderStatus,
  total_cents: z.number(),
  created_at: timestamp,
  /** Present when `return_url` and `cancel_url` were given. A secret: do not log it. */
  hosted_checkout_url: z.string().nullable().optional(),
  expires_at: timestamp.optional(),
});
/** A payment as listed inside an order. */
export const OrderPayment = z.looseObject({
  payment_id: z.string(),
  status: PaymentStatus,
  amount_cents: z.number(),
  method: z.string(),
  created_at: timestamp,
});
/** The response of `GET /pos/v1/orders/{order_id}`. */
export const Order = z.looseObject({
  order_id: z.string(),
  location_id: z.string(),
  status: OrderStatus,
  total_cents: z.number(),
  description: z.string().nullable().optional(),
  external_reference: z.string().nullable().optional(),
  customer_name: z.string().nullable().optional(),
  payments: z.array(OrderPayment),
  /** The machine client that opened the order; null for orders opened by a human user. */
  opened_by_m2m_client_id: z.string().nullable().optional(),
  created_at: timestamp,
  updated_at: timestamp,
});
