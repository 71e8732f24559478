import type { ResolvedOptions } from './core.js';
import type { MockProcessor } from './processor.js';
import type { MockState } from './state.js';

/** Whether demo mode declines this amount (its last two digits are in the list). */
export function declinesAmount(amountCents: number, endings: readonly number[]): boolean {
  return endings.includes(amountCents % 100);
}

function later(ms: number, run: () => void): void {
  // unref'd: demo timers never keep a test process or the bin alive on their own.
  setTimeout(() => {
    try {
      run();
    } catch {
      // The test or the partner moved the payment on in the meantime (voided it): nothing to do.
    }
  }, ms).unref();
}

/**
 * Demo mode: answers for the processor on real timers, so a demo against the bin sees payments
 * approve (or decline), settle, and refunds confirm without a test driving them.
 */
export function scheduleAutoProcess(
  options: NonNullable<ResolvedOptions['autoProcess']>,
  processor: MockProcessor,
  state: () => MockState,
  kind: 'payment' | 'refund',
  id: string,
): void {
  if (kind === 'refund') {
    later(options.refundAfterMs, () => processor.confirmRefund(id));
    return;
  }
  later(options.approveAfterMs, () => {
    const payment = state().payments.get(id);
    if (!payment) return;
    if (declinesAmount(payment.amount_cents, options.declineAmountsEndingIn)) {
      processor.decline(id);
      return;
    }
    processor.approve(id);
    later(options.settleAfterMs, () => processor.settle(id));
  });
}
