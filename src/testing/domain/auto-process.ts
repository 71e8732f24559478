// The mock's demo mode: `scheduleAutoProcess()` approves or declines, settles and confirms on the
// mock clock without a test driving the processor.
import type { InternalClock } from '../clock.js';
import type { ResolvedOptions } from '../options.js';
import type { MockState } from '../state.js';
import type { MockProcessor } from './processor.js';

/** Whether demo mode declines this amount (its last two digits are in the list). */
export function declinesAmount(amountCents: number, endings: readonly number[]): boolean {
  return endings.includes(amountCents % 100);
}

/**
 * Demo mode: answers for the processor on the mock clock, so a demo against the bin (whose clock
 * follows real time) sees payments approve (or decline), settle, and refunds confirm without a test
 * driving them; a test with a manual clock moves them on with `mock.clock.advance()`. An outcome
 * that no longer fits (the payment was voided first) is skipped by the clock.
 */
export function scheduleAutoProcess(
  options: NonNullable<ResolvedOptions['autoProcess']>,
  processor: MockProcessor,
  clock: InternalClock,
  state: MockState,
  kind: 'payment' | 'refund',
  id: string,
): void {
  if (kind === 'refund') {
    clock.schedule(options.refundAfterMs, () => processor.confirmRefund(id));
    return;
  }
  clock.schedule(options.approveAfterMs, () => {
    const payment = state.payments.get(id);
    if (!payment) return;
    if (declinesAmount(payment.amount_cents, options.declineAmountsEndingIn)) {
      processor.decline(id);
      return;
    }
    processor.approve(id);
    clock.schedule(options.settleAfterMs, () => processor.settle(id));
  });
}
