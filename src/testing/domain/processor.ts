// The mock's card processor: the MockProcessor a test drives (approve, decline, settle, confirm a
// refund, ...), each outcome one call of the payment or refund aggregate.
import type { MockCore } from '../engine/mock-core.js';
import { movePayment, type PaymentMove } from './payments.js';
import { settleRefund } from './refunds.js';

/**
 * The card processor's outcomes, driven by a test (spec 3.1 and 3.3; the SDK's design notes for
 * settled/declined/failed). Each method throws `MockControlError` when the transition is not
 * allowed from the current status, so a test that drives the wrong payment finds out at once.
 *
 * @example
 * mock.processor.approve(payment.payment_id); // pending -> approved, fires payment.approved
 * mock.processor.settle(payment.payment_id);  // approved -> settled, no event
 */
export interface MockProcessor {
  /** pending -> approved; event `payment.approved`. */
  approve(paymentId: string): void;
  /** pending -> declined; no event. */
  decline(paymentId: string): void;
  /** pending -> failed (processing error); no event (`payment.failed` is not delivered). */
  fail(paymentId: string): void;
  /** approved -> settled; no event. */
  settle(paymentId: string): void;
  /** pending -> cancelled (operator); event `payment.cancelled`. */
  cancel(paymentId: string): void;
  /** pending -> expired (time-to-live); event `payment.expired`. */
  expire(paymentId: string): void;
  /** refund pending -> approved; events `payment.refunded` and `payment.reversal_settled`. */
  confirmRefund(refundId: string): void;
  /** refund pending -> failed with `processor_message`; event `payment.reversal_failed`. */
  rejectRefund(refundId: string, message?: string): void;
}

/** The processor controls: each is one call of the payment or refund aggregate (domain/). */
export function createProcessor(core: MockCore): MockProcessor {
  const move = (to: PaymentMove) => (id: string) => {
    movePayment(core, id, to);
  };
  return {
    approve: move('approved'),
    decline: move('declined'),
    fail: move('failed'),
    settle: move('settled'),
    cancel: move('cancelled'),
    expire: move('expired'),
    confirmRefund: (id) => settleRefund(core, id, 'approved', null),
    rejectRefund: (id, message = 'The processor rejected the reversal; manual intervention required') =>
      settleRefund(core, id, 'failed', message),
  };
}
