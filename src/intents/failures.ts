// The intent layer's own checks and errors: a payment's or refund's key, a lease another call took
// over, a failing store.

import { checkKey } from '../core/call/idempotency-key.js';
import { PaymentsError } from '../core/errors/base-error.js';
import { CallError } from '../core/errors/call-error.js';

/**
 * The key of a payment or refund creation, refused before anything is sent unless it is 1 to 255
 * characters: the caller's, or a new UUID when the call gives none (a call's own intent: a rerun
 * cannot find it, but concurrent and retried attempts of this one call are still one creation).
 */
export function intentKey(kind: string, given: unknown): string {
  return checkKey(kind, given === undefined ? crypto.randomUUID() : given);
}

/** The error of a call whose lease passed to another call: it sent nothing more. */
export function lostLease(kind: string, key: string): CallError {
  const error = new CallError(
    `Idempotency key '${key}' was taken over by another call (this call's lease ran out); this call sent nothing more. Call again with the same key to get the ${kind}.`,
  );
  error.idempotencyKey = key;
  return error;
}

/**
 * The error of a call whose deadline left too little to send and hear the answer: it sent nothing
 * (any earlier send of its key was reconciled as not landed, or was never made).
 */
export function tooLateToSend(kind: string, key: string, leftMs: number): CallError {
  const error = new CallError(
    `The ${kind} of idempotency key '${key}' was not sent: ${Math.max(0, Math.round(leftMs))} ms of the call's deadline were left, too little to hear its answer. Nothing was sent by this call; call again with the same key and a longer deadline.`,
  );
  error.idempotencyKey = key;
  return error;
}

/** A store's failure, as a PaymentsError saying nothing more was sent. */
export function storeFailure(error: unknown): never {
  if (error instanceof PaymentsError) throw error;
  throw new PaymentsError(
    `The intent store failed (${error instanceof Error ? error.message : String(error)}); nothing more was sent.`,
    { cause: error },
  );
}
