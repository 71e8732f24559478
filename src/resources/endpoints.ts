// Every request of spec 4 that the SDK sends, in one table: its method, route template, scope and
// retry class, and for a payment or refund creation the kind of its intent. The resources build
// their requests here, and so do the intent layer's reconciliation reads (resources/reads.ts) and
// `client.charge` (a payment under its key): one place says what each endpoint is. test/resources/endpoints.test.ts
// holds the table equal to the mock's operation table (src/testing/documents/operations.ts).
// The token endpoint (spec 5) is not here: it is on the auth URL, and the core's auth mints it.

import type { z } from 'zod';
import type { RequestOptions, RequestSpec, RetryMode } from '../core/types.js';
import type { KeyedSpec } from '../intents/intent.js';
import { formatCents } from '../internal/format.js';
import type { Scope } from '../schemas/common.js';
import { Order } from '../schemas/compiled/orders.js';
import { Payment } from '../schemas/compiled/payments.js';
import { Refund } from '../schemas/compiled/refunds.js';
import type * as P from '../schemas/payments.js';
import type * as R from '../schemas/refunds.js';

/** One endpoint as the SDK calls it; its key in {@link ENDPOINTS} is the service's operation id. */
export interface Endpoint {
  method: 'GET' | 'POST';
  /** The path template of spec 4 (`/pos/v1/orders/{order_id}`), the route events and spans show. */
  route: string;
  /** The scope the endpoint needs (spec 5); undefined for a public endpoint, called without a token. */
  scope: Scope | undefined;
  /** How a failed attempt may be retried (docs/retries.md). */
  retry: RetryMode;
  /** A creation the intent layer makes exactly once per key. */
  intent?: 'payment' | 'refund';
}

/** The endpoints of spec 4 the SDK calls, by the service's operation id. */
export const ENDPOINTS = {
  createOrder: { method: 'POST', route: '/pos/v1/orders', scope: 'svc/payments:create', retry: 'keyed' },
  getOrder: { method: 'GET', route: '/pos/v1/orders/{order_id}', scope: 'svc/payments:read', retry: 'safe' },
  createPayment: {
    method: 'POST',
    route: '/pos/v1/orders/{order_id}/payments',
    scope: 'svc/payments:create',
    retry: 'unsafe',
    intent: 'payment',
  },
  getPayment: {
    method: 'GET',
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}',
    scope: 'svc/payments:read',
    retry: 'safe',
  },
  // Voiding twice returns the same result (spec 4.5): retried freely.
  voidPayment: {
    method: 'POST',
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}/void',
    scope: 'svc/payments:create',
    retry: 'safe',
  },
  createRefund: {
    method: 'POST',
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds',
    scope: 'svc/payments:refund',
    retry: 'unsafe',
    intent: 'refund',
  },
  getRefund: {
    method: 'GET',
    route: '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds/{refund_id}',
    scope: 'svc/payments:read',
    retry: 'safe',
  },
  listLocations: { method: 'GET', route: '/pos/v1/locations', scope: 'svc/locations:read', retry: 'safe' },
  getLocation: {
    method: 'GET',
    route: '/pos/v1/locations/{location_id}',
    scope: 'svc/locations:read',
    retry: 'safe',
  },
  // Each call mints a new single-use credential; a duplicate is harmless (the unused one expires).
  createLaunchToken: {
    method: 'POST',
    route: '/pos/v1/launch-tokens',
    scope: 'svc/pos:launch',
    retry: 'safe',
  },
  // A launch token works once: not retried after it may have reached the service.
  exchangeLaunchToken: {
    method: 'POST',
    route: '/pos/v1/public/launch-exchange',
    scope: undefined,
    retry: 'unsafe',
  },
  getOpenApiDocument: {
    method: 'GET',
    route: '/pos/v1/.well-known/openapi.json',
    scope: undefined,
    retry: 'safe',
  },
  getAsyncApiDocument: {
    method: 'GET',
    route: '/pos/v1/.well-known/asyncapi.json',
    scope: undefined,
    retry: 'safe',
  },
  createWebhookEndpoint: {
    method: 'POST',
    route: '/admin/v1/partners/{partner_id}/webhook-endpoints',
    scope: 'svc/webhooks:subscribe',
    retry: 'unsafe',
  },
} as const satisfies Record<string, Endpoint>;

/** The pieces of each route between its parameters, split once (a path is built per call). */
const PIECES = new Map<string, readonly string[]>(
  Object.values(ENDPOINTS).map((e) => [e.route, e.route.split(/\{\w+\}/)]),
);

/**
 * The path of `endpoint` with `ids` in its parameters, in order, each encoded so that a value can
 * never add a path segment (`../`) or a query string.
 */
function pathOf(endpoint: Endpoint, ids: readonly string[]): string {
  const pieces = PIECES.get(endpoint.route) as readonly string[];
  let out = pieces[0] as string;
  for (let i = 0; i < ids.length; i++) out += encodeURIComponent(ids[i] as string) + pieces[i + 1];
  return out;
}

const NO_IDS: readonly string[] = [];

/**
 * The request of `endpoint`: its path filled with `ids` (the route's parameters, in order), the
 * validated `body` when it takes one. Every spec has one shape (the fields a caller may set after,
 * `query` and `reconcile`, are there from the start).
 */
export function requestOf<S extends z.ZodType>(
  endpoint: Endpoint,
  response: S,
  options: RequestOptions | undefined,
  ids: readonly string[] = NO_IDS,
  body?: unknown,
): RequestSpec<S> {
  return {
    method: endpoint.method,
    scope: endpoint.scope,
    path: ids.length === 0 ? endpoint.route : pathOf(endpoint, ids),
    route: endpoint.route,
    query: undefined,
    body,
    auth: endpoint.scope === undefined ? false : undefined,
    retry: endpoint.retry,
    reconcile: undefined,
    response,
    options,
  };
}

/**
 * The request of a payment creation (spec 4.3), exactly once per idempotency key: what
 * `payments.create` sends, and `client.charge` under its one key.
 */
export function paymentCreation(
  orderId: string,
  body: P.PaymentCreateParams & { amount_cents: number },
  options: RequestOptions | undefined,
): KeyedSpec<typeof Payment> {
  const spec = requestOf(ENDPOINTS.createPayment, Payment, options, [orderId], body) as KeyedSpec<
    typeof Payment
  >;
  spec.reconcile = {
    subject: 'the order',
    read: `client.orders.get('${orderId}')`,
    check: `look for a payment of ${formatCents(body.amount_cents)} before creating another`,
  };
  spec.intent = { kind: 'payment', orderId, paymentId: undefined, charge: undefined };
  return spec;
}

/** The request of a refund creation (spec 4.6), exactly once per idempotency key. */
export function refundCreation(
  orderId: string,
  paymentId: string,
  body: R.RefundCreateParams,
  options: RequestOptions | undefined,
): KeyedSpec<typeof Refund> {
  const spec = requestOf(ENDPOINTS.createRefund, Refund, options, [orderId, paymentId], body) as KeyedSpec<
    typeof Refund
  >;
  spec.reconcile = {
    subject: 'the order',
    read: `client.orders.get('${orderId}')`,
    check: "the payment's status before refunding again",
  };
  spec.intent = { kind: 'refund', orderId, paymentId, charge: undefined };
  return spec;
}

/** The read of an order with its payments (spec 4.2). */
export function orderRead(orderId: string, options: RequestOptions | undefined): RequestSpec<typeof Order> {
  return requestOf(ENDPOINTS.getOrder, Order, options, [orderId]);
}

/** The read of one payment (spec 4.4). */
export function paymentRead(
  orderId: string,
  paymentId: string,
  options: RequestOptions | undefined,
): RequestSpec<typeof Payment> {
  return requestOf(ENDPOINTS.getPayment, Payment, options, [orderId, paymentId]);
}

/** The read of one refund (spec 4.7). */
export function refundRead(
  orderId: string,
  paymentId: string,
  refundId: string,
  options: RequestOptions | undefined,
): RequestSpec<typeof Refund> {
  return requestOf(ENDPOINTS.getRefund, Refund, options, [orderId, paymentId, refundId]);
}
