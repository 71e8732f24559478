// The mock's order routes (spec 4.1, 4.2): create an order (Idempotency-Key replay and conflict, the
// hosted checkout URL) and get one.
import { createHash } from 'node:crypto';
import { uuid } from '../../schemas/compiled/fields.js';
import { createOrder as createOrderRecord } from '../domain/orders.js';
import { findOrder, fingerprint } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { type Answer, fail, json, MockApiError } from '../engine/respond.js';
import type { RouteContext } from '../engine/router.js';
import { orderView } from '../engine/views.js';
import type { OrderRecord } from '../state.js';
import type { BodyOf, Handlers } from './handlers.js';

/** How long an Idempotency-Key is remembered (spec section 8). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
/** How long a hosted checkout URL is valid (spec 4.11). */
export const CHECKOUT_TTL_MS = 5 * 60_000;

/** 4.1 create order (with idempotency and hosted checkout) and 4.2 get order. */
export function orderRoutes(core: MockCore): Pick<Handlers, 'createOrder' | 'getOrder'> {
  return {
    createOrder: (ctx) => createOrder(core, ctx),
    getOrder: (ctx) =>
      json(200, orderView(findOrder(core.state, ctx.caller, ctx.params.order_id), core.state), ctx.requestId),
  };
}

async function createOrder(core: MockCore, ctx: RouteContext<BodyOf<'createOrder'>>): Promise<Answer> {
  const key = ctx.headers.get('idempotency-key');
  let storeKey: string | null = null;
  let print = '';
  if (key !== null) {
    if (!uuid.safeParse(key).success) throw fail.invalidRequest('Idempotency-Key must be a UUID');
    storeKey = `${ctx.caller.partnerId}:${ctx.caller.subject}:${key.toLowerCase()}`;
    // A digest of the canonical body: a few bytes per remembered key, however big the body.
    print = createHash('sha256')
      .update(fingerprint(safeJson(ctx.rawBody)))
      .digest('base64url');
    const seen = core.state.idempotency.get(storeKey);
    if (seen && core.clock.now() - seen.atMs < IDEMPOTENCY_WINDOW_MS) {
      if (seen.fingerprint !== print) {
        throw new MockApiError(
          409,
          'idempotency_conflict',
          'This Idempotency-Key was used with a different body',
        );
      }
      const order = core.state.orders.get(seen.orderId);
      // The entry goes with its order (maxOrders), so the order is there to rebuild the answer from.
      const body = seen.body ?? (order && createdView(order));
      return json(201, body, ctx.requestId, { 'idempotent-replayed': 'true' });
    }
  }
  const params = ctx.body();
  const order = createOrderRecord(core, ctx.caller, params);
  const body = createdView(order);
  const checkout = Boolean(order.return_url && order.cancel_url);
  if (checkout) {
    const ttlSeconds = CHECKOUT_TTL_MS / 1000;
    const token = await core.authority.sign(
      { typ: 'hosted_checkout', order_id: order.order_id, partner_id: order.partner_id },
      order.order_id,
      core.clock.now(),
      ttlSeconds,
    );
    body.hosted_checkout_url = `${ctx.origin}/pos/v1/public/hosted-checkout?token=${token}`;
    body.expires_at = new Date(core.clock.now() + CHECKOUT_TTL_MS).toISOString();
  }
  if (storeKey) {
    const entry = { fingerprint: print, atMs: core.clock.now(), orderId: order.order_id };
    core.state.rememberOrderKey(storeKey, checkout ? { ...entry, body } : entry);
  }
  return json(201, body, ctx.requestId);
}

/** The answer of 4.1 without a hosted checkout URL (what a replay rebuilds). */
function createdView(order: OrderRecord): Record<string, unknown> {
  return {
    order_id: order.order_id,
    status: 'open',
    total_cents: order.total_cents,
    created_at: order.created_at,
  };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
