// The mock's refund routes (spec 4.6, 4.7): create and get a refund.
import { createRefund } from '../domain/refunds.js';
import { findOrder, findPayment } from '../engine/lookup.js';
import type { MockCore } from '../engine/mock-core.js';
import { fail, json } from '../engine/respond.js';
import { refundView } from '../engine/views.js';
import type { Handlers } from './handlers.js';

/** 4.6 create refund and 4.7 get refund. */
export function refundRoutes(core: MockCore): Pick<Handlers, 'createRefund' | 'getRefund'> {
  return {
    createRefund(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const payment = findPayment(core.state, order, ctx.params.payment_id);
      const params = ctx.body();
      const refund = createRefund(core, order, payment, params);
      return json(201, refundView(refund), ctx.requestId);
    },
    getRefund(ctx) {
      const order = findOrder(core.state, ctx.caller, ctx.params.order_id);
      const payment = findPayment(core.state, order, ctx.params.payment_id);
      const refund = core.state.refunds.get(ctx.params.refund_id ?? '');
      if (!refund || refund.payment_id !== payment.payment_id)
        throw fail.notFound('refund_not_found', 'Refund');
      return json(200, refundView(refund), ctx.requestId);
    },
  };
}
