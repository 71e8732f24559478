// What a chaos run takes and what it reports (the client side's; types.ts has what the two processes
// share).
import type { CheckoutTallyFigures } from './checkout.js';
import type { KeyedFiguresClient } from './intents.js';
import type { FAULTS, Kind, ServerSummary } from './types.js';

export interface ChaosOptions {
  /** Calls measured. */
  calls: number;
  concurrency: number;
  seed: number;
  /** Calls made first, to reach a steady state (JIT, pools, token), before the baseline heap. @default 400 */
  warmup?: number;
  /** Share of requests the proxy breaks. @default 0.13 */
  faultRate?: number;
  /** Every attempt's `timeoutMs`. @default 1000 */
  timeoutMs?: number;
  /** The `deadlineMs` of about one call in five. @default 2500 */
  deadlineMs?: number;
  /**
   * What an attempt or a call may overrun its limit by (timer granularity, abort and close), on top
   * of the event loop's stalls at that moment (a loaded machine). @default 250
   */
  marginMs?: number;
  /** Heap samples (after GC) taken during the measured calls, for the slope. @default 0 */
  samples?: number;
  /** The self-test's defect (`duplicateOrders` of ServerOptions in types.ts). */
  duplicateOrders?: boolean | undefined;
  /** Payments and refunds with a lost answer: `auto` reconciles, `off` is 0.2.0's. @default 'auto' */
  reconcile?: 'auto' | 'off';
  /**
   * The clients' `settleMs`: above the longest the mock may still process a request after the
   * client gave up on it: a `slow_request` reaches it up to timeoutMs + 600 ms after the proxy got
   * it, and the event loops of both processes may each stall about a second on a loaded machine
   * (docs/reliability.md). @default 5000
   */
  settleMs?: number;
  /**
   * The `deadlineMs` of one keyed call in five: room for two sends each reconciled (timeoutMs +
   * settleMs) and a third. @default 15000
   */
  keyedDeadlineMs?: number;
  /** The mix of calls (a self-test's). @default calls.ts's WEIGHTS */
  weights?: Partial<Record<Kind, number>> | undefined;
  /** Only these faults (a self-test's). @default every fault */
  faults?: (typeof FAULTS)[number][] | undefined;
  /**
   * A self-test's defect on the client side: an adopted payment is reported as the order's decoy,
   * as if reconciliation had adopted a payment its key did not make.
   */
  plantWrongAdoption?: boolean | undefined;
  /**
   * The `maxIntents` of the intent store both clients share: small enough that the warm-up fills
   * it (400 calls make about 190 keyed intents), so the baseline heap already holds a full store
   * and the heap check measures what grows beyond the store's bound (docs/reliability.md). @default 150
   */
  maxIntents?: number;
  /**
   * A self-test's defect on the client side: checkouts create the order without a key and key the
   * payment by the order, so that every rerun makes another order and pays it.
   */
  plantNaiveCheckout?: boolean | undefined;
  /** Writes a heap snapshot after the warm-up and one after the calls there (to find a leak). */
  heapSnapshots?: string | undefined;
  /** Called every 1,000 calls. */
  onProgress?: ((done: number) => void) | undefined;
}

export interface ChaosResult {
  options: Required<
    Omit<
      ChaosOptions,
      | 'duplicateOrders'
      | 'onProgress'
      | 'heapSnapshots'
      | 'weights'
      | 'faults'
      | 'plantWrongAdoption'
      | 'plantNaiveCheckout'
    >
  >;
  calls: number;
  ok: number;
  failed: number;
  /** Failures that were not a `PaymentsError` (must be 0). */
  notPaymentsError: number;
  outcomeUnknown: number;
  failedByKind: Record<string, number>;
  /** The keyed payments and refunds, as the clients saw them (the measured calls). */
  keyed: KeyedFiguresClient;
  /** The checkouts (the measured calls), as the clients saw them. */
  checkouts: CheckoutTallyFigures;
  durationMs: number;
  /**
   * Attempts as the clients timed them: from the `request` event to the attempt's end. `explained`:
   * past timeout + margin, but not past the event loop's stalls at the time; `over`: breaches.
   */
  attempts: { count: number; maxMs: number; explained: number; over: number; maxUnexplainedMs: number };
  /** Calls with a `deadlineMs`: their longest duration, and the same judgement. */
  deadlines: { calls: number; maxMs: number; explained: number; over: number };
  heap: {
    baselineBytes: number;
    afterBytes: number;
    growthBytes: number;
    /** [calls done, heapUsed after GC] during the measured calls. */
    samples: [number, number][];
    /**
     * The shared intent store's size after the warm-up and after the calls, and the intents it
     * keeps by design beyond its cap at the end (open or unknown: never dropped until settled).
     */
    intents: { baseline: number; after: number; unsettled: number };
  };
  clientLoopDelayMaxMs: number;
  unhandled: number;
  transcript: { lines: number; secretsScanned: number; found: Record<string, number>; controlFound: boolean };
  server: ServerSummary;
  /** Every broken promise, as lines: empty when the SDK kept them all. */
  broken: string[];
}
