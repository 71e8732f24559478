/**
 * The one place a call's error is finished: from the failure that ended the call, the retry
 * decision and the call's spec, it gives an order creation's error its `Idempotency-Key`, flags an
 * unknown outcome (with the spec's reconciliation as data and in words), says why a retryable
 * failure was not retried, and writes the message once, redacted with the client's registry.
 */
import { redact, type SecretRegistry } from '../../internal/redact.js';
import type { AuthStrategy } from '../auth/strategies.js';
import { APIConnectionTimeoutError, APIError } from '../errors/api-errors.js';
import { PaymentsError } from '../errors/base-error.js';
import { CallError } from '../errors/call-error.js';
import type { RetryDecision } from '../limits/retry.js';
import type { Reconciliation, RequestSpec } from '../types.js';

/** What a call ended with. */
export interface CallEnding {
  /** The error of the last attempt, or what stopped the call (an abort, the deadline, a token). */
  error: unknown;
  spec: RequestSpec & { context?: string | undefined };
  /** An order creation's key: as the caller gave it, else the one the SDK made for the call. */
  idempotencyKey: string | undefined;
  /** The `Idempotency-Key` it sent: the key itself when a UUID, else the key's UUID v5. */
  sentKey?: string | undefined;
  /** Whether an attempt may have been processed (it failed ambiguously, or was in flight). */
  ambiguous: boolean;
  /** The retry decision, when the policy gave up on a retryable failure. */
  decision?: (RetryDecision & { action: 'throw' }) | undefined;
  secrets: SecretRegistry;
}

// The message an error had before a call finished it, so that finishing twice (a token error
// finished by the grant, then by the call that waited for it) rewrites rather than appends.
const BASE = Symbol('partner-payments.baseMessage');
type Finishable = CallError & { [BASE]?: string };

const DEFAULT_RECONCILE: Reconciliation = {
  check: 'read the resource to learn whether it took effect before trying again',
};

/** The error a call throws. */
export function finishError(ending: CallEnding): CallError {
  const { spec, secrets } = ending;
  const final = asCallError(ending.error, spec) as Finishable;
  const base = final[BASE] ?? (spec.context ? `${spec.context}: ${final.message}` : final.message);
  const parts = [base];
  const why = ending.decision?.why;
  if (why === 'wait_exceeds_deadline' || why === 'retry_after_too_long') {
    const wait = final instanceof APIError ? final.retryAfterMs : undefined;
    parts.push(
      wait === undefined
        ? 'Not retried: the next attempt would start after the deadline.'
        : `Not retried: the service asked to wait ${Math.ceil(wait / 1000)} s (retryAfterMs), ${
            why === 'wait_exceeds_deadline' ? 'beyond the deadline' : 'longer than the SDK waits on its own'
          }.`,
    );
  }
  if (spec.retry === 'keyed') final.idempotencyKey = ending.idempotencyKey;
  if (spec.retry !== 'safe' && (ending.ambiguous || final.outcomeUnknown)) {
    final.outcomeUnknown = true;
    if (spec.retry === 'keyed') {
      parts.push(
        `The order may have been created: retry with { idempotencyKey: '${ending.idempotencyKey}' }${
          ending.sentKey !== undefined && ending.sentKey !== ending.idempotencyKey
            ? ` (sent as Idempotency-Key ${ending.sentKey})`
            : ''
        } to get it back without creating a second one.`,
      );
    } else {
      final.reconcile = spec.reconcile ?? DEFAULT_RECONCILE;
      parts.push(
        `The outcome is unknown: the request was sent and may have been processed. ${sentence(final.reconcile)}`,
      );
    }
  }
  setMessage(final, secrets.redact(parts.join(' ')));
  final[BASE] = secrets.redact(base);
  if (final instanceof APIError) {
    (final as { headers: Record<string, string> }).headers = secrets.headers(final.headers);
  }
  return final;
}

/** A reconciliation in words: "Read the order (client.orders.get('…')) and look for …." */
export function sentence(r: Reconciliation): string {
  const text = r.read ? `read ${r.subject ?? 'it'} (${r.read}) and ${r.check}` : r.check;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

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

// Anything that is not a CallError (a bug, a token function's error) becomes one, keeping its cause.
function asCallError(error: unknown, spec: RequestSpec): CallError {
  if (error instanceof CallError) return error;
  if (error instanceof PaymentsError) return new CallError(error.message, { cause: error });
  return new CallError(`${spec.method} ${spec.path} failed unexpectedly (see cause).`, { cause: error });
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
    throw error instanceof Error ? ownCopy(error) : error;
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

// A real Error (so `util.types.isNativeError` and `PaymentsError.is` hold) of the same class and fields.
function ownCopy<E extends Error>(error: E): E {
  const copy = new Error(error.message) as E;
  Object.setPrototypeOf(copy, Object.getPrototypeOf(error));
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(error));
  return copy;
}

// The message, and the stack's first line (which repeats the message as it was at construction).
function setMessage(error: Error, message: string): void {
  const old = error.message;
  const header = `${error.name}: ${old}`;
  const stack = error.stack;
  error.message = message;
  if (typeof stack === 'string') {
    const frames = stack.startsWith(header) ? stack.slice(header.length) : stack.slice(stack.indexOf('\n'));
    error.stack = `${error.name}: ${message}${frames.startsWith('\n') ? frames : `\n${frames}`}`;
  }
}

/**
 * Rewrites a finished error's message after a payment or refund was reconciled: the message it had
 * before the call finished it (or, with `keep`, its whole message), then `tail` (what reconciliation
 * learnt). Redacted like the rest.
 */
export function restate(error: CallError, tail: string, keep = false): void {
  const base = keep ? error.message : ((error as Finishable)[BASE] ?? error.message);
  setMessage(error, redact(`${base} ${tail}`));
}
