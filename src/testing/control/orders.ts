// `GET /_mock/v1/orders`: every order of the mock with its payments and refunds, in the page
// envelope of spec 2.6, so that a test in any language can count what it made.

import { deriveOrderStatus } from '../engine/order-status.js';
import { MockApiError } from '../engine/respond.js';
import { paymentView, refundView } from '../engine/views.js';
import type { MockState, OrderRecord } from '../state.js';
import type { ControlRoute } from './routes.js';
import * as S from './schemas.js';

/** The page size when `limit` is not given, and the most one page holds (spec 8). */
const PAGE = { default: 50, max: 200 } as const;

/** One whole number of `searchParams` within bounds, else a 422 naming the parameter. */
function whole(url: URL, name: string, fallback: number, min: number, max: number): number {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new MockApiError(422, 'validation_error', `${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function orderWithAll(state: MockState, order: OrderRecord) {
  const payments = state.paymentsOf(order);
  return {
    order_id: order.order_id,
    partner_id: order.partner_id,
    location_id: order.location_id,
    status: deriveOrderStatus(order.total_cents, payments),
    total_cents: order.total_cents,
    description: order.description,
    external_reference: order.external_reference,
    created_at: order.created_at,
    updated_at: order.updated_at,
    payments: payments.map(paymentView),
    refunds: payments.flatMap((p) => state.refundsOf(p.payment_id).map(refundView)),
  };
}

export const ORDER_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/_mock/v1/orders',
    operationId: 'listOrders',
    summary:
      "Every partner's orders with their payments and refunds, oldest first, in the page envelope (items, total, limit, offset)",
    tag: 'state',
    query: [
      { name: 'external_reference', description: 'Only orders with this external_reference', type: 'string' },
      {
        name: 'limit',
        description: `Orders per page, 1 to ${PAGE.max} (default ${PAGE.default})`,
        type: 'integer',
      },
      { name: 'offset', description: 'Orders to skip (default 0)', type: 'integer' },
    ],
    status: 200,
    response: S.ControlOrderPage,
    errors: [422],
    handle({ url }, deps) {
      const limit = whole(url, 'limit', PAGE.default, 1, PAGE.max);
      const offset = whole(url, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const reference = url.searchParams.get('external_reference');
      const state = deps.state();
      const orders = [...state.orders.values()].filter(
        (o) => reference === null || o.external_reference === reference,
      );
      const items = orders.slice(offset, offset + limit).map((o) => orderWithAll(state, o));
      return { items, total: orders.length, limit, offset };
    },
  },
];
