import {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  PaymentResultTimeoutError,
  RateLimitError,
} from './core/errors.js';
import { RETRYABLE_STATUSES } from './core/retry.js';
import type { RequestOptions } from './core/types.js';
import { sleep } from './internal/sleep.js';
import type { Payment } from './schemas/payments.js';
import type { Refund } from './schemas/refunds.js';

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
 * Options of {@link awaitPaymentResult} and {@link awaitRefundResult}.
 *
 * @example
 * const options: AwaitResultOptions = { intervalMs: 2_000, timeoutMs: 90_000, signal: AbortSignal.timeout(120_000) };
 * const payment = await awaitPaymentResult(client, orderId, paymentId, options);
 */
export interface AwaitResultOptions {
  /** Time between reads. The service recommends 3 s. @default 3000 */
  intervalMs?: number;
  /** How long to wait before throwing {@link PaymentResultTimeoutError}. @default 60000 */
  timeoutMs?: number;
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
  payments: { get(orderId: string, paymentId: string, opts?: RequestOptions): Promise<Payment> };
  refunds: {
    get(orderId: string, paymentId: string, refundId: string, opts?: RequestOptions): Promise<Refund>;
  };
}

/**
 * Reads a payment every `intervalMs` until it leaves `pending`, and returns it (approved, declined,
 * failed, ...). A 429 waits out its `Retry-After`; transient failures (5xx, connection) do not end
 * the wait. Throws {@link PaymentResultTimeoutError} with the last status at the deadline.
 *
 * @example
 * const payment = await client.payments.create(orderId, { method: 'card', amount_cents: 5_000 });
 * const result = await awaitPaymentResult(client, orderId, payment.payment_id, {
 *   onPoll: ({ attempt, status }) => console.log(`poll ${attempt}: ${status}`),
 * });
 * if (result.status === 'approved') fulfil(orderId);
 */
export function awaitPaymentResult(
  client: PollingClient,
  orderId: string,
  paymentId: string,
  options: AwaitResultOptions = {},
): Promise<Payment> {
  return pollUntilSettled(
    (opts) => client.payments.get(orderId, paymentId, opts),
    options,
    (lastStatus, waitedMs) => new PaymentResultTimeoutError({ orderId, paymentId, lastStatus, waitedMs }),
  );
}

/**
 * Reads a refund until it leaves `pending` (the processor approved or rejected it) and returns it.
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
  options: AwaitResultOptions = {},
): Promise<Refund> {
  return pollUntilSettled(
    (opts) => client.refunds.get(orderId, paymentId, refundId, opts),
    options,
    (lastStatus, waitedMs) =>
      new PaymentResultTimeoutError({
        orderId,
        paymentId,
        lastStatus,
        waitedMs,
        refundId,
      }),
  );
}

async function pollUntilSettled<T extends { status: string }>(
  read: (opts: RequestOptions) => Promise<T>,
  options: AwaitResultOptions,
  timeout: (lastStatus: string | undefined, waitedMs: number) => PaymentResultTimeoutError,
): Promise<T> {
  const intervalMs = options.intervalMs ?? 3000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const { signal } = options;
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastStatus: string | undefined;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw new APIUserAbortError();
    let delay = intervalMs;
    let status: string | undefined;
    try {
      // The poll loop is the retry: each read makes one attempt, bounded by the time left.
      const value = await read({ signal, maxRetries: 0, deadlineMs: Math.max(1, deadline - Date.now()) });
      status = lastStatus = value.status;
      if (value.status !== 'pending') {
        options.onPoll?.({ attempt, status, elapsedMs: Date.now() - started, nextPollInMs: 0 });
        return value;
      }
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (error instanceof RateLimitError && error.retryAfterMs !== undefined) delay = error.retryAfterMs;
    }
    const remaining = deadline - Date.now();
    const next = remaining > 0 ? Math.min(delay, remaining) : 0;
    options.onPoll?.({ attempt, status, elapsedMs: Date.now() - started, nextPollInMs: next });
    if (remaining <= 0) throw timeout(lastStatus, Date.now() - started);
    await sleep(next, signal);
  }
}

// Failures that say nothing about the payment: wait and read again.
function isTransient(error: unknown): boolean {
  if (error instanceof APIUserAbortError) return false;
  if (error instanceof APIConnectionError) return true;
  return error instanceof APIError && RETRYABLE_STATUSES.has(error.status);
}
