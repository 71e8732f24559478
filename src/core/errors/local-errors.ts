// Errors raised inside the process (no HTTP exchange): bad input, webhook verification, polling.
import { formatDuration } from '../../internal/format.js';
import { issueLine } from '../../internal/issues.js';
import { PaymentsError } from './base-error.js';

/**
 * One rule a request broke, with where.
 *
 * @example
 * const messages = err.issues.map((issue: ValidationIssue) => `${issue.path.join('.')}: ${issue.message}`);
 */
export interface ValidationIssue {
  /** Where in the input, e.g. `['level3', 'line_items', 2, 'description']`. */
  path: (string | number)[];
  message: string;
  /** The service's error code this corresponds to, when it has one (`level3_tax_mismatch`). */
  code?: string;
}

/**
 * The request broke a documented rule; nothing was sent. `issues` lists each rule with its path.
 *
 * @example
 * if (err instanceof RequestValidationError) res.status(400).json({ issues: err.issues });
 */
export class RequestValidationError extends PaymentsError {
  override name = 'RequestValidationError';
  readonly issues: ValidationIssue[];
  constructor(what: string, issues: ValidationIssue[]) {
    const lines = issues.map((i) => `  - ${issueLine(i, '(input)')}`);
    super(`Invalid ${what}; nothing was sent:\n${lines.join('\n')}`);
    this.issues = issues;
  }
}

/**
 * Why a webhook failed verification.
 *
 * @example
 * const misconfigured = (reason: WebhookVerificationReason) => reason === 'body_not_raw' || reason === 'missing_secret';
 */
export type WebhookVerificationReason =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'body_not_raw'
  | 'missing_secret'
  | 'invalid_payload'
  /** Signed, but an envelope version (`v`) other than the 1 this SDK reads. */
  | 'unsupported_version'
  /** Signed, but its `occurred_at` is older than the `maxAgeMs` the receiver set. */
  | 'event_too_old';

/**
 * A webhook delivery failed verification: answer 400 and do not act on it.
 *
 * @example
 * if (err instanceof WebhookVerificationError) return res.status(400).send(err.reason);
 */
export class WebhookVerificationError extends PaymentsError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * `awaitPaymentResult` (or `awaitRefundResult`) reached its deadline before the payment (refund)
 * reached a status it waits for (`until`; by default any status but `pending`).
 *
 * @example
 * try {
 *   await client.awaitPaymentResult(orderId, paymentId);
 * } catch (err) {
 *   if (err instanceof ResultTimeoutError) console.warn(`still ${err.lastStatus}: ask support`);
 * }
 */
export class ResultTimeoutError extends PaymentsError {
  override name = 'ResultTimeoutError';
  /** The order of the awaited payment. */
  readonly orderId: string;
  /** The awaited payment (or the payment of the awaited refund). */
  readonly paymentId: string;
  /** Set when a refund was awaited. */
  readonly refundId: string | undefined;
  /** The status last read (normally `pending`); undefined when no read succeeded. */
  readonly lastStatus: string | undefined;
  /** How long the wait lasted, in milliseconds. */
  readonly waitedMs: number;
  /** How many reads the wait made (0 when not known). */
  readonly reads: number;
  constructor(init: {
    orderId: string;
    paymentId: string;
    refundId?: string;
    lastStatus: string | undefined;
    waitedMs: number;
    /** How many reads the wait made. */
    reads?: number;
    /** The statuses waited for, when the caller named them. */
    until?: readonly string[] | undefined;
    /** The client calls the mock (`partner-payments/testing`): the advice says how to move it on. */
    againstMock?: boolean;
  }) {
    const what = init.refundId
      ? `Refund ${init.refundId} of payment ${init.paymentId}`
      : `Payment ${init.paymentId}`;
    const waitingFor = init.until?.length ? ` (waiting for ${init.until.join(' or ')})` : '';
    const advice = init.againstMock
      ? mockAdvice(
          init.refundId ? `confirmRefund('${init.refundId}')` : `approve('${init.paymentId}')`,
          init.refundId ? `refunds/${init.refundId}/confirm` : `payments/${init.paymentId}/approve`,
        )
      : init.refundId
        ? 'The payment.refunded event signals completion; read the refund again later.'
        : init.lastStatus !== 'pending' && init.lastStatus !== undefined
          ? 'Read the payment again later, or wait for its webhook event.'
          : init.waitedMs < 30_000
            ? "The processor may still answer: wait longer (maxWaitMs, or the call's deadlineMs), or read the payment again later. A payment pending for more than 60 seconds should be investigated with support (quote the order and payment ids)."
            : 'A payment pending for more than 60 seconds should be investigated with support (quote the order and payment ids).';
    super(
      `${what} of order ${init.orderId} was still ${init.lastStatus ?? 'unknown'} after ${formatDuration(init.waitedMs)}${readsMade(init.reads)}${waitingFor}. ${advice}`,
    );
    this.orderId = init.orderId;
    this.paymentId = init.paymentId;
    this.refundId = init.refundId;
    this.lastStatus = init.lastStatus;
    this.waitedMs = init.waitedMs;
    this.reads = init.reads ?? 0;
  }
}

/** ` and 3 reads` (nothing when the count is not known). */
const readsMade = (reads: number | undefined) => (reads ? ` and ${reads} read${reads === 1 ? '' : 's'}` : '');

/**
 * What moves a pending payment or refund on in the mock, where support has nothing to investigate.
 * The client cannot see whether the mock is in demo mode, so the advice covers both.
 */
const mockAdvice = (call: string, control: string) =>
  "This client uses the mock's credentials. In demo mode (the mock bin's default, or " +
  'createMockService({ autoProcess })) the mock answers on its own after its delay (approveAfterMs, ' +
  "1.5 s by default): give the wait longer than that (maxWaitMs, or the call's deadlineMs). Otherwise " +
  `your test answers: mock.processor.${call} in process, POST /_mock/v1/${control} on the bin; ` +
  'on a manual clock (clock: { realTime: false }) mock.clock.advance(ms) runs demo outcomes.';

/**
 * The former name of {@link ResultTimeoutError}, which is thrown for refunds too. The same class, so
 * `instanceof PaymentResultTimeoutError` still works.
 *
 * @deprecated Use {@link ResultTimeoutError}; this alias will be removed in 1.0.
 * @example
 * if (err instanceof PaymentResultTimeoutError) console.warn(err.lastStatus); // prefer ResultTimeoutError
 */
export const PaymentResultTimeoutError = ResultTimeoutError;
/**
 * The former name of {@link ResultTimeoutError}.
 *
 * @deprecated Use {@link ResultTimeoutError}; this alias will be removed in 1.0.
 * @example
 * const timeout: PaymentResultTimeoutError = new ResultTimeoutError({ orderId, paymentId, lastStatus: 'pending', waitedMs: 60_000 });
 */
export type PaymentResultTimeoutError = ResultTimeoutError;

/**
 * A payment or refund key was used again with other params (another order, payment, amount,
 * method, Level 3 or reason): nothing was sent. Use a new key for a new charge or refund.
 *
 * @example
 * try {
 *   await client.payments.create(orderId, { method: 'card', amount_cents: 2_000 }, { idempotencyKey: key });
 * } catch (err) {
 *   if (err instanceof IdempotencyConflictError) console.error(`key ${err.idempotencyKey} was used for another charge`);
 * }
 */
export class IdempotencyConflictError extends PaymentsError {
  override name = 'IdempotencyConflictError';
  readonly code = 'idempotency_conflict';
  /** The key that was used with other params. */
  readonly idempotencyKey: string;
  /**
   * @param kind - what the key was used for (`charge` for `client.charge`)
   * @param existing - what the key's earlier use made, as the message shows it
   * @param options - `refused`: the request this call sent, which the service refused (409
   *   `idempotency_conflict`); absent when the client's own intent store refused it before sending
   */
  constructor(
    kind: 'payment' | 'refund' | 'order' | 'charge',
    idempotencyKey: string,
    existing: string,
    options?: { cause?: unknown; refused?: 'order' | 'payment' | 'refund' },
  ) {
    const again = `Pass the same params to get that ${kind} back, or a new key for a new ${kind}.`;
    super(
      options?.refused
        ? `The service refused idempotency key '${idempotencyKey}' (409 idempotency_conflict): it was used for ${existing}. ` +
            `This call's ${options.refused} request was sent and refused, so it created nothing. ${again}`
        : `Idempotency key '${idempotencyKey}' was used for a ${kind} with other params (${existing}); nothing was sent. ${again}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.idempotencyKey = idempotencyKey;
  }
}

/**
 * An intent store with `durability` (`redisStores(client, { durability: { replicas, timeoutMs } })`)
 * could not get a payment's or refund's intent acknowledged by that many replicas within `timeoutMs`
 * (`WAIT` on the node that holds it): nothing was sent, and the key was released. Calling again
 * with the same key is safe; if it keeps failing, a replica is down or lagging (docs/fleets.md).
 *
 * @example
 * try {
 *   await client.payments.create(orderId, { method: 'card', amount_cents: 2_000 }, { idempotencyKey: key });
 * } catch (err) {
 *   if (err instanceof StoreDurabilityError) return res.status(503).json({ retry: true }); // nothing was charged
 *   throw err;
 * }
 */
export class StoreDurabilityError extends PaymentsError {
  override name = 'StoreDurabilityError';
  readonly code = 'store_durability';
  /** The key whose intent could not be made durable. */
  readonly idempotencyKey: string;
  /** The replicas asked for (`durability.replicas`). */
  readonly replicas: number;
  /** The replicas that acknowledged the write in time. */
  readonly acknowledged: number;
  constructor(init: { idempotencyKey: string; replicas: number; acknowledged: number; timeoutMs: number }) {
    super(
      `The intent of idempotency key '${init.idempotencyKey}' was acknowledged by ${init.acknowledged} of the ${init.replicas} replica(s) asked for within ${init.timeoutMs} ms; nothing was sent and the key was released. Call again with the same key.`,
    );
    this.idempotencyKey = init.idempotencyKey;
    this.replicas = init.replicas;
    this.acknowledged = init.acknowledged;
  }
}
