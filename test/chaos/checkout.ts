/**
 * Checkout-shaped work in the chaos run (issue 40): a partner's unit of work, "create the order, then
 * pay it", done with `client.charge` under one key per checkout (`checkout-<call id>`) and rerun from
 * the top on every failure with the same key, as a shopper's retried POST /checkout would be. The
 * client side counts how the checkouts ended (`CheckoutTally`); the service side counts what the mock
 * created for each key, from the `x-chaos-call` header every request of the checkout carries
 * (`CheckoutLedger`): exactly one order and one payment per key, and the pair a checkout returned
 * is the one its key made.
 */
import type { PaymentsClient, RequestOptions } from '../../src/index.js';

/** A checkout's key. */
export const checkoutKey = (callId: string) => `checkout-${callId}`;

/** How many times a checkout is run before it is counted unresolved. */
export const MAX_RUNS = 8;
/** The order's total leaves room for a second payment: a double charge lands, and shows. */
const TOTAL_CENTS = 5_000;
const AMOUNT_CENTS = 1_000;

export interface CheckoutRun {
  /** `orderId/paymentId` when a run succeeded. */
  result?: string;
  runs: number;
  /** The last run's error, when every run failed. */
  error?: unknown;
}

/**
 * Runs the checkout until a run succeeds (at most {@link MAX_RUNS}); `onRun` gets each run's start
 * (its deadline is its own) and its error, if it failed. `naive` is the control's defect: the order without a key, the payment keyed
 * by the order, so that a rerun makes another order and pays it too.
 */
export async function checkoutWithReruns(
  client: PaymentsClient,
  callId: string,
  locationId: string,
  opts: RequestOptions,
  onRun: (startedAt: number, error: unknown) => void,
  naive = false,
): Promise<CheckoutRun> {
  const key = checkoutKey(callId);
  const order = { location_id: locationId, total_cents: TOTAL_CENTS, description: key };
  const payment = { method: 'card', amount_cents: AMOUNT_CENTS } as const;
  let error: unknown;
  for (let runs = 1; runs <= MAX_RUNS; runs++) {
    const startedAt = performance.now();
    error = undefined;
    try {
      if (naive) {
        const created = await client.orders.create(order, opts);
        const paid = await client.payments.create(created.order_id, payment, {
          ...opts,
          idempotencyKey: `${key}:${created.order_id}`,
        });
        return { result: `${created.order_id}/${paid.payment_id}`, runs };
      }
      const done = await client.charge({ idempotencyKey: key, order, payment }, opts);
      return { result: `${done.order.order_id}/${done.payment.payment_id}`, runs };
    } catch (e) {
      error = e;
    } finally {
      onRun(startedAt, error);
    }
  }
  return { runs: MAX_RUNS, error };
}

/** The client side's figures of the checkouts. */
export interface CheckoutTallyFigures {
  keys: number;
  ok: number;
  /** Runs over all keys, and keys that needed more than one. */
  runs: number;
  rerunKeys: number;
  maxRuns: number;
  /** Keys whose every run failed, and of those, the ones whose last error said `outcomeUnknown`. */
  unresolved: number;
  unresolvedUnknown: number;
  unresolvedExamples: string[];
}

const emptyTally = (): CheckoutTallyFigures => ({
  keys: 0,
  ok: 0,
  runs: 0,
  rerunKeys: 0,
  maxRuns: 0,
  unresolved: 0,
  unresolvedUnknown: 0,
  unresolvedExamples: [],
});

export class CheckoutTally {
  figures = emptyTally();

  end(callId: string, run: CheckoutRun): void {
    const f = this.figures;
    f.keys++;
    f.runs += run.runs;
    if (run.runs > 1) f.rerunKeys++;
    f.maxRuns = Math.max(f.maxRuns, run.runs);
    if (run.result !== undefined) {
      f.ok++;
      return;
    }
    f.unresolved++;
    const e = run.error as { outcomeUnknown?: boolean; message?: string } | undefined;
    if (e?.outcomeUnknown) f.unresolvedUnknown++;
    if (f.unresolvedExamples.length < 5) f.unresolvedExamples.push(`${checkoutKey(callId)}: ${e?.message}`);
  }

  reset(): void {
    this.figures = emptyTally();
  }
}

/** The service side's figures of the checkouts (warm-up included). */
export interface CheckoutFigures {
  keys: number;
  /** Keys with exactly one order and one payment created. */
  exactlyOne: number;
  maxOrdersPerKey: number;
  maxPaymentsPerKey: number;
  /** Keys the mock made no payment for (their checkout is unresolved, or failed before paying). */
  withoutPayment: number;
  /** Results the clients returned, and those that were not their key's order and payment. */
  results: number;
  wrong: number;
}

export class CheckoutLedger {
  readonly #keys = new Set<string>();
  readonly #results = new Map<string, string>();

  noteKey(callId: string): void {
    this.#keys.add(callId);
  }

  noteResult(callId: string, result: string): void {
    this.#results.set(callId, result);
  }

  /** `createdBy`: the mock's `kind:id` creations by call. Adds every breach to `broken`. */
  judge(createdBy: Map<string, Set<string>>, broken: Set<string>): CheckoutFigures {
    const f: CheckoutFigures = {
      keys: this.#keys.size,
      exactlyOne: 0,
      maxOrdersPerKey: 0,
      maxPaymentsPerKey: 0,
      withoutPayment: 0,
      results: this.#results.size,
      wrong: 0,
    };
    for (const callId of this.#keys) {
      const made = [...(createdBy.get(callId) ?? [])];
      const orders = made.filter((id) => id.startsWith('order:')).map((id) => id.slice(6));
      const payments = made.filter((id) => id.startsWith('payment:')).map((id) => id.slice(8));
      f.maxOrdersPerKey = Math.max(f.maxOrdersPerKey, orders.length);
      f.maxPaymentsPerKey = Math.max(f.maxPaymentsPerKey, payments.length);
      if (orders.length === 1 && payments.length === 1) f.exactlyOne++;
      if (payments.length === 0) f.withoutPayment++;
      if (orders.length > 1 || payments.length > 1)
        broken.add(`checkout ${checkoutKey(callId)}: ${orders.length} orders, ${payments.length} payments`);
      const result = this.#results.get(callId);
      if (result !== undefined && (orders.length !== 1 || result !== `${orders[0]}/${payments[0]}`)) {
        f.wrong++;
        broken.add(`checkout ${checkoutKey(callId)}: returned ${result}, not its key's order and payment`);
      }
    }
    return f;
  }
}
