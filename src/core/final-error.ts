/**
 * How a call's error is finished before it leaves the core: the one place that gives an order
 * creation's error its `Idempotency-Key` and flags an unknown outcome, whatever ended the call (a
 * status, a timeout, the deadline, the caller's abort, a token that could not be minted).
 */
import type { AuthStrategy } from './auth.js';
import { APIConnectionTimeoutError, APIError, PaymentsError } from './errors.js';
import type { RetryDecision } from './retry.js';
import type { RequestSpec } from './types.js';

/** The error of a call that reached its `deadlineMs`. */
export function deadlineError(
  spec: RequestSpec,
  deadlineMs: number | undefined,
  cause?: unknown,
  during = '',
): APIConnectionTimeoutError {
  return new APIConnectionTimeoutError(
    `${spec.method} ${spec.path} reached its ${deadlineMs} ms deadline${during}.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Adds why a retryable failure was not retried (a wait that would not fit) to its message. */
export function explainNoRetry(
  error: PaymentsError,
  decision: RetryDecision & { action: 'throw' },
): PaymentsError {
  if (decision.why !== 'wait_exceeds_deadline' && decision.why !== 'retry_after_too_long') return error;
  const wait = error instanceof APIError && error.retryAfterMs !== undefined ? error.retryAfterMs : undefined;
  error.message +=
    wait === undefined
      ? ' Not retried: the next attempt would start after the deadline.'
      : ` Not retried: the service asked to wait ${Math.ceil(wait / 1000)} s (retryAfterMs), ${
          decision.why === 'wait_exceeds_deadline'
            ? 'beyond the deadline'
            : 'longer than the SDK waits on its own'
        }.`;
  return error;
}

/**
 * The error a call throws. Anything that is not a {@link PaymentsError} is wrapped in one. A
 * `keyed` call (order creation) gets the key it sent; a `keyed` or `unsafe` call whose attempts may
 * have been processed (`ambiguous`) gets `outcomeUnknown: true` and says what to do.
 */
export function finishError(
  error: unknown,
  spec: RequestSpec,
  idempotencyKey: string | undefined,
  ambiguous: boolean,
): PaymentsError {
  const final =
    error instanceof PaymentsError
      ? error
      : new PaymentsError(`${spec.method} ${spec.path} failed unexpectedly (see cause).`, { cause: error });
  if (spec.retry === 'safe') return final;
  if (spec.retry === 'keyed') final.idempotencyKey = idempotencyKey;
  if (!ambiguous || final.outcomeUnknown) return final;
  final.outcomeUnknown = true;
  final.message +=
    spec.retry === 'keyed'
      ? ` The order may have been created: retry with { idempotencyKey: '${idempotencyKey}' } to get it back without creating a second one.`
      : ` The outcome is unknown: the request was sent and may have been processed. ${
          spec.reconcile ?? 'Read the resource to learn whether it took effect before trying again.'
        }`;
  return final;
}

/**
 * The token for the next attempt, waited for within the call's deadline. A token error is shared by
 * every call that waited for the same mint, so each call gets its own copy to finish.
 */
export async function waitForToken(
  auth: AuthStrategy,
  signal: AbortSignal | undefined,
  spec: RequestSpec,
  deadlineAt: number | undefined,
  deadlineMs: number | undefined,
): Promise<string> {
  const during = ' while waiting for an access token';
  try {
    if (deadlineAt === undefined) return await auth.token(signal);
    const remaining = deadlineAt - Date.now();
    if (remaining <= 0) throw deadlineError(spec, deadlineMs, undefined, during);
    return await withinDeadline(auth.token(signal), remaining, () =>
      deadlineError(spec, deadlineMs, undefined, during),
    );
  } catch (error) {
    throw error instanceof PaymentsError ? ownCopy(error) : error;
  }
}

function withinDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A copy of an error with the same class and fields, safe to change for one call. */
function ownCopy<E extends PaymentsError>(error: E): E {
  const copy = Object.create(Object.getPrototypeOf(error)) as E;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  return copy;
}
