// The mock's payment routes (spec 4.3 to 4.5): create, get and void a payment.
import { createPayment, voidPayment } from '../domain/payments.js';
import { findOrder, findPayment } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { json, type Reply } from '../engine/respond.js';
import type { RouteContext } from '../engine/router.js';
import { paymentCreatedView, paymentView } from '../engine/views.js';
import type { Handlers } from './handlers.js';

/** 4.3 create payment, 4.4 get payment, 4.5 void payment. */
export function paymentRoutes(
  core: MockCore,
): Pick<Handlers, 'createPayment' | 'getPayment' | 'voidPayment'> {
  return {
    createPayment(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const params = ctx.body();
      const p = createPayment(core, order, params.amount_cents, params.level3 ?? order.level3);
      return json(201, paymentCreatedView(p), ctx.requestId);
    },
    getPayment(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      return json(200, paymentView(findPayment(core.state, order, ctx.params.payment_id)), ctx.requestId);
    },
    voidPayment: (ctx) => voidRoute(core, ctx),
  };
}

function voidRoute(core: MockCore, ctx: RouteContext): Reply {
  const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
  const p = voidPayment(core, findPayment(core.state, order, ctx.params.payment_id));
  // Spec 1.6: a write answers 201, a repeated void too (api.md 9: void is idempotent).
  return json(201, { payment_id: p.payment_id, status: p.status, voided_at: p.voided_at }, ctx.requestId);
}
