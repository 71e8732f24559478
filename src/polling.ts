// Waiting for an asynchronous result: `awaitPaymentResult()` and `awaitRefundResult()` read the
// resource until it reaches a wanted status (or no longer can), riding out transient failures.

import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  RateLimitError,
  ResultTimeoutError,
} from './core/errors/api-errors.js';
import { RETRYABLE_STATUSES } from './core/limits/retry.js';
import type { RequestOptions } from './core/types.js';
import { mockClients } from './internal/mock-clients.js';
import { clockOfClient, sleepOn, type WaitClock } from './internal/wait-clock.js';
import type { Payment, PaymentStatus } from './schemas/payments.js';
import type { Refund, RefundStatus } from './schemas/refunds.js';

/**
 * One poll, as reported to `onPoll`.
 *
 * @example
 * const onPoll = (p: PollProgress) => log.debug(`poll ${p.attempt}: ${p.status} after ${p.elapsedMs}ms`);
 */
export interface PollProgress {
  /** 1 for the first read. */
  attempt: number;
  /** The status read, or undefined when the read failed transiently. */
  status: string | undefined;
  /** Milliseconds since the wait began. */
  elapsedMs: number;
  /** Milliseconds until the next read (0 when this was the last). */
  nextPollInMs: number;
}

/**
 * Options of {@link awaitPaymentResult} (statuses `S` are payment statuses) and
 * {@link awaitRefundResult} (refund statuses).
 *
 * @example
 * const options: AwaitResultOptions = { intervalMs: 2_000, maxWaitMs: 90_000, until: ['settled'] };
 * const payment = await awaitPaymentResult(client, orderId, paymentId, options);
 */
export interface AwaitResultOptions<S extends string = PaymentStatus> {
  /** Time between reads. The service recommends 3 s. @default 3000 */
  intervalMs?: number;
  /**
   * The whole wait, over every read, before {@link ResultTimeoutError} is thrown. (A request's own
   * `timeoutMs` is one attempt; this is the total.)
   * @default 60000
   */
  maxWaitMs?: number;
  /**
   * The former name of `maxWaitMs`, used when `maxWaitMs` is not given.
   * @deprecated Use `maxWaitMs`; `timeoutMs` here read like a per-request timeout. Removed in 1.0.
   * @default undefined
   */
  timeoutMs?: number;
  /**
   * The statuses to wait for. `['settled']` waits until a payment can be refunded. A status from
   * which none of them can be reached any more (`declined`, `voided`, ...) ends the wait at once and
   * the payment is returned as it is; a status the SDK does not know keeps the wait going.
   * @default any status but `pending`
   */
  until?: readonly S[];
  /** Stops the wait at once. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /** Called after every read. @default undefined */
  onPoll?: (progress: PollProgress) => void;
}

/**
 * What the polling helpers need from a client.
 *
 * @example
 * const pollable: PollingClient = new PaymentsClient(); // a PaymentsClient is one; so is a test double
 * await awaitRefundResult(pollable, orderId, paymentId, refundId);
 */
export interface PollingClient {
  /** Reads payments. */
  payments: {
    /** Reads one payment (`client.payments.get`). */
    get(orderId: string, paymentId: string, opts?: RequestOptions): Promise<Payment>;
  };
  /** Reads refunds. */
  refunds: {
    /** Reads one refund (`client.refunds.get`). */
    get(orderId: string, paymentId: string, refundId: string, opts?: RequestOptions): Promise<Refund>;
  };
}

/**
 * Reads a payment every `intervalMs` until it reaches a status of `until` (by default: until it
 * leaves `pending`), and returns it. A status from which `until` can no longer be reached returns at
 * once too (a `declined` payment never settles), so check the status you got. A 429 waits out its
 * `Retry-After`; transient failures (5xx, connection) do not end the wait. Throws
 * {@link ResultTimeoutError} with the last status after `maxWaitMs`.
 *
 * @example
 * const payment = await client.payments.create(orderId, { method: 'card', amount_cents: 5_000 });
 * const result = await awaitPaymentResult(client, orderId, payment.payment_id, {
 *   onPoll: ({ attempt, status }) => console.log(`poll ${attempt}: ${status}`),
 * });
 * if (result.status === 'approved') fulfil(orderId);
 *
 * // Before a refund: wait until the payment is settled (a refund needs a settled payment).
 * const settled = await awaitPaymentResult(client, orderId, payment.payment_id, { until: ['settled'], maxWaitMs: 300_000 });
 * if (settled.status === 'settled') await client.refunds.create(orderId, payment.payment_id, { amount_cents: 5_000 });
 */
export function awaitPaymentResult(
  client: PollingClient,
  orderId: string,
  paymentId: string,
  options: AwaitResultOptions = {},
): Promise<Payment> {
  return pollUntil(
    (opts) => client.payments.get(orderId, paymentId, opts),
    options,
    PAYMENT_NEXT,
    clockOfClient(client),
    (lastStatus, waitedMs, reads) =>
      new ResultTimeoutError({
        orderId,
        paymentId,
        lastStatus,
        waitedMs,
        reads,
        until: options.until,
        againstMock: mockClients.has(client),
      }),
  );
}

/**
 * Reads a refund until it leaves `pending` (the processor approved or rejected it), or until it
 * reaches a status of `until`, and returns it.
 *
 * @example
 * const refund = await client.refunds.create(orderId, paymentId, { amount_cents: 500 });
 * const done = await awaitRefundResult(client, orderId, paymentId, refund.refund_id);
 * if (done.status === 'failed') console.warn(done.processor_message);
 */
export function awaitRefundResult(
  client: PollingClient,
  orderId: string,
  paymentId: string,
  refundId: string,
  options: AwaitResultOptions<RefundStatus> = {},
): Promise<Refund> {
  return pollUntil(
    (opts) => client.refunds.get(orderId, paymentId, refundId, opts),
    options,
    REFUND_NEXT,
    clockOfClient(client),
    (lastStatus, waitedMs, reads) =>
      new ResultTimeoutError({
        orderId,
        paymentId,
        refundId,
        lastStatus,
        waitedMs,
        reads,
        until: options.until,
        againstMock: mockClients.has(client),
      }),
  );
}

// Where each status can go next (spec 3.1 and 3.3; approved -> settled and pending -> declined or
// failed are the transitions the spec leaves "not shown" but names as statuses).
const PAYMENT_NEXT: Transitions = {
  pending: ['approved', 'declined', 'failed', 'voided', 'cancelled', 'expired'],
  approved: ['settled', 'voided'],
  settled: ['refunded'],
};
const REFUND_NEXT: Transitions = { pending: ['approved', 'failed'] };
/** Known statuses: those with an entry here, and every status they lead to (terminal ones). */
type Transitions = Record<string, readonly string[]>;

/**
 * Whether a status is still worth waiting on: one of `until` can be reached from it. A status the
 * SDK does not know (the service added one) might lead anywhere, so it is.
 */
function canStillReach(status: string, until: readonly string[], next: Transitions): boolean {
  const known = (s: string) => s in next || Object.values(next).some((to) => to.includes(s));
  if (!known(status)) return true;
  const seen = new Set([status]);
  const queue = [status];
  for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
    for (const to of next[s] ?? []) {
      if (until.includes(to)) return true;
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return false;
}

/**
 * The time kept before a wait's end for its last read: the read before the deadline is made early
 * enough to answer within it (a read at the deadline itself would have no time left).
 */
export function lastReadReserveMs(maxWaitMs: number): number {
  return Math.min(1_000, maxWaitMs / 10);
}

async function pollUntil<T extends { status: string }>(
  read: (opts: RequestOptions) => Promise<T>,
  options: AwaitResultOptions<string>,
  next: Transitions,
  clock: WaitClock,
  timeout: (lastStatus: string | undefined, waitedMs: number, reads: number) => ResultTimeoutError,
): Promise<T> {
  const intervalMs = options.intervalMs ?? 3000;
  const maxWaitMs = options.maxWaitMs ?? options.timeoutMs ?? 60_000;
  const { signal, until } = options;
  // Done: a status waited for, or one from which none of them can be reached any more.
  const done = until
    ? (status: string) => until.includes(status) || !canStillReach(status, until, next)
    : (status: string) => status !== 'pending';
  const started = clock.now();
  const deadline = started + maxWaitMs;
  // The last read starts here at the latest, with time left to answer before the deadline.
  const lastReadBy = deadline - lastReadReserveMs(maxWaitMs);
  let lastStatus: string | undefined;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new APIUserAbortError();
    let delay = intervalMs;
    let status: string | undefined;
    try {
      // The poll loop is the retry: each read makes one attempt, bounded by the time left.
      const value = await read({ signal, maxRetries: 0, deadlineMs: Math.max(1, deadline - clock.now()) });
      status = lastStatus = value.status;
      if (done(value.status)) {
        options.onPoll?.({ attempt, status, elapsedMs: clock.now() - started, nextPollInMs: 0 });
        return value;
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (error instanceof RateLimitError && error.retryAfterMs !== undefined) delay = error.retryAfterMs;
    }
    const now = clock.now();
    // A read is left while the last read's start is ahead: the next one comes after `delay`, or
    // just before the deadline when that is sooner.
    const nextPollInMs = now < lastReadBy ? Math.min(delay, lastReadBy - now) : 0;
    options.onPoll?.({ attempt, status, elapsedMs: now - started, nextPollInMs });
    if (nextPollInMs === 0) throw timeout(lastStatus, clock.now() - started, attempt);
    await sleepOn(clock, nextPollInMs, signal, APIUserAbortError);
  }
}

// Failures that say nothing about the payment: wait and read again.
function isTransient(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && RETRYABLE_STATUSES.has(error.status);
}
