import type { MockCore } from '../core.js';
import { createRefund } from '../domain/refunds.js';
import { findOrder, findPayment } from '../lookup.js';
import { fail, json } from '../respond.js';
import { refundView } from '../views.js';
import type { Handlers } from './index.js';

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
