/**
 * The client side's figures of the keyed payments and refunds (issue 23): how each call ended, and
 * what its reconciliations concluded, from the clients' `reconcile` events. A call that reconciled
 * at least once met an ambiguous failure: with `reconcile: 'off'` (0.2.0's behaviour) it would have
 * ended there, in `outcomeUnknown` (the attempts before are the same under either policy: the proxy
 * draws each attempt's fault from the call and the attempt's number), so the run gives both figures.
 * Only the calls in flight are held, by key.
 */
import type { PaymentsClient, ReconcileEvent } from '../../src/index.js';

/** How the keyed calls of one kind ended, and what reconciliation did for them. */
export interface KeyedTally {
  calls: number;
  /** Returned the payment or refund. */
  ok: number;
  /** Of which adopted: the answer was lost and reconciliation found the resource. */
  adopted: number;
  /** Ended in an error with `outcomeUnknown: true`. */
  unknown: number;
  /** Ended in an error that says what happened (a refusal, or "did not land"). */
  failedKnown: number;
  /** Calls that reconciled at least once: the calls `reconcile: 'off'` leaves `outcomeUnknown`. */
  reconciled: number;
  /** Verdicts, over all the calls' reconciliations. */
  verdicts: { landed: number; not_landed: number; unknown: number };
  /** The first few calls that ended `outcomeUnknown`: the key and the error's message (what is known). */
  unknownExamples: string[];
}

/** How many `outcomeUnknown` endings of each kind are kept as examples. */
const EXAMPLES = 5;

const empty = (): KeyedTally => ({
  calls: 0,
  ok: 0,
  adopted: 0,
  unknown: 0,
  failedKnown: 0,
  reconciled: 0,
  verdicts: { landed: 0, not_landed: 0, unknown: 0 },
  unknownExamples: [],
});

export type KeyedFiguresClient = { payments: KeyedTally; refunds: KeyedTally };

export class IntentTally {
  figures: KeyedFiguresClient = { payments: empty(), refunds: empty() };
  /** The outcome of the last reconciliation of each key in flight. */
  readonly #last = new Map<string, ReconcileEvent['outcome']>();

  listen(client: PaymentsClient): void {
    client.on('reconcile', (e) => {
      this.#last.set(e.idempotencyKey, e.outcome);
      this.#of(e.kind).verdicts[e.outcome]++;
    });
  }

  #of(kind: 'payment' | 'refund'): KeyedTally {
    return kind === 'payment' ? this.figures.payments : this.figures.refunds;
  }

  /**
   * A keyed call ended (`message`: the error's, when it failed); says whether its resource was
   * adopted (found by reconciliation).
   */
  end(kind: 'payment' | 'refund', key: string, ending: 'ok' | 'unknown' | 'known', message = ''): boolean {
    const t = this.#of(kind);
    const last = this.#last.get(key);
    this.#last.delete(key);
    t.calls++;
    if (last !== undefined) t.reconciled++;
    if (ending === 'unknown') {
      t.unknown++;
      if (t.unknownExamples.length < EXAMPLES) t.unknownExamples.push(`${key}: ${message}`);
    } else if (ending === 'known') t.failedKnown++;
    else {
      t.ok++;
      if (last === 'landed') t.adopted++;
    }
    return ending === 'ok' && last === 'landed';
  }

  /** The measured window starts: the figures go back to zero. */
  reset(): void {
    this.figures = { payments: empty(), refunds: empty() };
  }
}
