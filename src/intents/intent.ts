// What one call under an idempotency key starts from, and the options and ids the runner
// derives from it (src/intents/runner.ts).

import type { z } from 'zod';
import { reconcileMode } from '../core/options/checks.js';
import type { IntentRecord } from '../core/stores/intent-store.js';
import type { ReconcileMode, RequestOptions, RequestSpec } from '../core/types.js';
import { textDigest } from '../internal/key-hash.js';
import { onClock, type WaitClock } from '../internal/wait-clock.js';
import { intentKey } from './failures.js';

/**
 * What a payment or refund creation is to the intent layer: the order (and payment) it belongs to.
 * Its params are the spec's validated `body`.
 */
export interface IntentSpec {
  kind: 'payment' | 'refund';
  orderId: string;
  paymentId?: string | undefined;
  /**
   * The order params of `client.charge` (as JSON), which the key's fingerprint covers too: the same
   * key with another order conflicts before the payment is sent, even when no order is created.
   */
  charge?: string | undefined;
}

/** A creation that runs exactly once per idempotency key: the request with its intent. */
export type KeyedSpec<S extends z.ZodType = z.ZodType> = RequestSpec<S> & { intent: IntentSpec };

/**
 * A payment or refund creation as the client's requester hands it to the intent runner: a spec with
 * its intent and its validated body (what the fingerprint covers, with the order and payment).
 */
export type IntentCall = KeyedSpec & {
  body: { amount_cents: number; method?: string } & Record<string, unknown>;
};

/** A call holds its key's lease this long when it has no `deadlineMs`. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * The part of a call's deadline kept for reconciliation: a send must end this long before the
 * deadline, so that a lost answer can still be settled by a read of the order within it. A
 * quarter of the deadline, at most 5 s (a read answers in well under a second when the
 * service answers at all).
 */
export function readReserveMs(deadlineMs: number): number {
  return Math.min(deadlineMs / 4, 5_000);
}

/** A call's key, its lease and owner, and the record a new key starts with. */
export interface Intent {
  key: string;
  /** The params as JSON: what the fingerprint covers and what is sent. */
  json: string;
  mode: ReconcileMode;
  leaseMs: number;
  until: number;
  /** When a send must end: `until`, less the reconciliation's reserve when the call has a deadline. */
  sendBy: number;
  owner: string;
  draft: IntentRecord;
  /** What the key is used for, as a conflict names it: `charge` for `client.charge`'s payment. */
  use: IntentRecord['kind'] | 'charge';
}

/**
 * The intent of `call`, whose lease `owner` holds: under the call's key (a new UUID when it gives
 * none); the client's `reconcile` and `deadlineMs` apply where the call's options give none. A bad
 * key or `reconcile` throws before anything is sent.
 */
export function newIntent(
  call: IntentCall,
  defaults: { reconcile: ReconcileMode; deadlineMs: number | undefined; clock: WaitClock },
  owner: string,
): Intent {
  const opts = call.options;
  const { kind, orderId, paymentId, charge } = call.intent;
  const key = intentKey(kind, opts?.idempotencyKey);
  const mode = reconcileMode(opts?.reconcile, defaults.reconcile);
  const deadlineMs = opts?.deadlineMs ?? defaults.deadlineMs;
  const leaseMs = deadlineMs ?? DEFAULT_LEASE_MS;
  const now = Date.now();
  // The send's stamp is on the wait clock, as reconciliation measures settleMs (IntentIO.clock).
  const sentAt = onClock(defaults.clock, now);
  // The params are the validated body: strict schemas give their keys in one order, so equal params
  // serialise alike. Serialised once: the send reuses the text.
  const params = call.body;
  const json = JSON.stringify(params);
  const draft: IntentRecord = {
    key,
    kind,
    fingerprint: textDigest(
      charge === undefined
        ? [kind, '|', orderId, '|', paymentId ?? '', '|', json]
        : [kind, '|', orderId, '|', paymentId ?? '', '|', json, '|', charge],
    ),
    orderId,
    paymentId,
    amountCents: params.amount_cents,
    method: params.method,
    // A new key is recorded as sent in the same write that creates it (the send follows at once;
    // a crash in between reads as "sent, not landed" after settleMs): one store call less.
    state: 'open',
    firstSentAt: sentAt,
    lastSentAt: sentAt,
    sends: 1,
    // Every field set from the start: one shape for every draft.
    resultId: undefined,
    result: undefined,
    candidates: undefined,
    createdAt: now,
    updatedAt: now,
  };
  const until = now + leaseMs;
  const sendBy = deadlineMs === undefined ? until : until - readReserveMs(deadlineMs);
  return {
    key,
    json,
    mode,
    leaseMs,
    until,
    sendBy,
    owner,
    draft,
    use: charge === undefined ? kind : 'charge',
  };
}

/** The options of one send: the caller's, without the key's, ending by `sendBy`. */
export function sendOptions(call: IntentCall, sendBy: number): RequestOptions {
  const options: RequestOptions = Object.assign({}, call.options);
  options.idempotencyKey = undefined;
  options.reconcile = undefined;
  options.deadlineMs = Math.max(1, sendBy - Date.now());
  return options;
}

/** The payment or refund id of the resource a create call returned. */
export function resultIdOf(kind: IntentRecord['kind'], data: unknown): string | undefined {
  return (data as { payment_id?: string; refund_id?: string })[
    kind === 'payment' ? 'payment_id' : 'refund_id'
  ];
}
