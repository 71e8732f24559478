// Exactly-once payments and refunds (api.md 17): one call under an idempotency key holds the key's
// lease in the intent store, sends, and after a lost answer reconciles before it answers.
import { textDigest } from '../../internal/key-hash.js';
import { sleep } from '../../internal/sleep.js';
import { APIPromise, metaOf, type ResponseMeta, responseMeta } from '../call/api-promise.js';
import { restate } from '../call/final-error.js';
import type { IntentCall, RequestOptions } from '../call/types.js';
import { CallError } from '../errors/call-error.js';
import { IdempotencyConflictError } from '../errors/local-errors.js';
import type { EventSink } from '../observe/events.js';
import { type ReconcileMode, reconcileMode } from '../options/checks.js';
import { type IntentRecord, revise } from '../stores/intent-store.js';
import { checkKey, lostLease, storeFailure } from './failures.js';
import { type IntentIO, reconcilePayment, reconcileRefund, type Verdict } from './reconcile.js';

/** A call holds its key's lease this long when it has no `deadlineMs` (api.md 17). */
export const DEFAULT_LEASE_MS = 60_000;
/** How often a call waiting for another holder of its key looks again. */
const BUSY_POLL_MS = 250;

/** What the runner needs beyond reconciliation's reads. */
export interface IntentConfig extends IntentIO {
  events: EventSink;
  reconcile: ReconcileMode;
  deadlineMs: number | undefined;
  maxRetries: number;
}

/** Runs payment and refund creations exactly once per key. */
export class IntentRunner {
  constructor(private readonly cfg: IntentConfig) {}

  run<T>(call: IntentCall<T>): APIPromise<T> {
    const meta = responseMeta();
    return APIPromise.from(this.#run(call, meta), meta);
  }

  async #run<T>(call: IntentCall<T>, meta: ResponseMeta): Promise<T> {
    const opts = call.options;
    const key = checkKey(call.kind, opts?.idempotencyKey ?? crypto.randomUUID());
    const mode = reconcileMode(opts?.reconcile, this.cfg.reconcile);
    const signal = opts?.signal;
    const leaseMs = opts?.deadlineMs ?? this.cfg.deadlineMs ?? DEFAULT_LEASE_MS;
    const until = Date.now() + leaseMs;
    const owner = crypto.randomUUID();
    const now = Date.now();
    const draft: IntentRecord = {
      key,
      kind: call.kind,
      // The params are the validated body: strict schemas give their keys in one order, so equal params
      // serialise alike.
      fingerprint: textDigest(
        `${call.kind}|${call.orderId}|${call.paymentId ?? ''}|${JSON.stringify(call.params)}`,
      ),
      orderId: call.orderId,
      paymentId: call.paymentId,
      amountCents: call.params.amount_cents,
      method: call.params.method,
      // A new key is recorded as sent in the same write that creates it (the send follows at once;
      // a crash in between reads as "sent, not landed" after settleMs): one store call less.
      state: 'open',
      firstSentAt: now,
      lastSentAt: now,
      sends: 1,
      createdAt: now,
      updatedAt: now,
    };
    let record = await this.#acquire(draft, owner, leaseMs, until, signal);
    if (record.state === 'landed') return call.parse(record.result ?? {});
    const fresh = record.createdAt === now && record.firstSentAt === now && record.sends === 1;
    if (!fresh && record.firstSentAt !== undefined && record.state !== 'not_landed') {
      // A call with this key was sent before (its holder died, or it ended unknown): learn what
      // happened before sending anything.
      const error = new CallError(
        `A ${call.kind} with idempotency key '${key}' was sent before and its outcome is not recorded.`,
      );
      error.outcomeUnknown = true;
      error.idempotencyKey = key;
      if (mode === 'off')
        return this.#fail(record, owner, error, "Reconcile first (reconcile: 'auto' or client.recover()).");
      const verdict = await this.#reconcile(record, until, signal, undefined);
      if (verdict.outcome === 'landed') return this.#adopt(call, record, owner, verdict, meta);
      if (verdict.outcome === 'unknown') return this.#unknown(record, owner, error, verdict);
    }
    // Earlier sends provably did not land: a new series starts (its window for candidates too).
    if (record.state === 'not_landed') record = revise(record, { firstSentAt: undefined });
    for (let sent = 0; ; ) {
      if (!fresh || sent > 0) {
        const at = Date.now();
        record = revise(record, {
          state: 'open',
          firstSentAt: record.firstSentAt ?? at,
          lastSentAt: at,
          sends: record.sends + 1,
          updatedAt: at,
        });
        if ((await this.#put(record, owner, false)) === 'lost') throw lostLease(call.kind, key);
      }
      sent++;
      try {
        const options: RequestOptions = Object.assign({}, opts, {
          idempotencyKey: undefined,
          reconcile: undefined,
          deadlineMs: Math.max(1, until - Date.now()),
        });
        const sending = call.send(options);
        const data = await sending;
        Object.assign(meta, metaOf(sending));
        const id = (data as { payment_id?: string; refund_id?: string })[
          call.kind === 'payment' ? 'payment_id' : 'refund_id'
        ];
        await this.#finish(
          record,
          { state: 'landed', resultId: id, result: data as Record<string, unknown> },
          owner,
        );
        return data;
      } catch (error) {
        if (!(error instanceof CallError)) throw error;
        error.idempotencyKey = key;
        // The request left at the latest now (after any wait for a token, a rate-limit slot or a
        // connection): the service may process it until settleMs after this, not after the stamp
        // taken before the send.
        record = revise(record, { lastSentAt: Date.now() });
        if (!error.outcomeUnknown) {
          // The service refused it (or it provably never went out): nothing of this key landed.
          await this.#finish(record, { state: 'not_landed' }, owner);
          throw error;
        }
        if (mode === 'off')
          return this.#fail(
            record,
            owner,
            error,
            `Or rerun with { idempotencyKey: '${key}', reconcile: 'auto' }: the SDK reconciles it without a second ${call.kind}.`,
          );
        const verdict = await this.#reconcile(record, until, signal, error.callId);
        if (verdict.outcome === 'landed') return this.#adopt(call, record, owner, verdict, meta);
        if (verdict.outcome === 'unknown') return this.#unknown(record, owner, error, verdict);
        record = revise(record, { state: 'not_landed' });
        if (sent > this.cfg.maxRetries || Date.now() >= until) {
          await this.#finish(record, {}, owner);
          error.outcomeUnknown = false;
          error.reconcile = undefined;
          restate(
            error,
            `The ${call.kind} did not land (reconciled with the order): nothing was charged, and the key may be used again.`,
          );
          throw error;
        }
        this.cfg.log?.(
          'warn',
          `${call.kind} ${key} did not land (reconciled); sending it again under the same key`,
        );
      }
    }
  }

  /** The key's lease, waiting while another live call holds it (within the call's deadline). */
  async #acquire(
    draft: IntentRecord,
    owner: string,
    leaseMs: number,
    until: number,
    signal: AbortSignal | undefined,
  ) {
    for (;;) {
      const begun = await this.#store(() => this.cfg.store.begin(draft, owner, leaseMs));
      if (begun.status === 'acquired' || begun.status === 'done') return begun.record;
      if (begun.status === 'conflict') {
        const r = begun.record;
        const what = `order ${r.orderId}${r.paymentId ? `, payment ${r.paymentId}` : ''}, ${r.amountCents} cents`;
        throw new IdempotencyConflictError(draft.kind, draft.key, what);
      }
      const wait = Math.min(BUSY_POLL_MS, until - Date.now());
      if (wait <= 0) {
        const error = new CallError(
          `Another call holds idempotency key '${draft.key}' (its ${draft.kind} is in flight) and did not finish within this call's deadline; nothing was sent by this call. Call again with the same key to get its outcome.`,
        );
        error.idempotencyKey = draft.key;
        throw error;
      }
      await sleep(wait, signal);
    }
  }

  async #reconcile(
    record: IntentRecord,
    until: number,
    signal: AbortSignal | undefined,
    callId: string | undefined,
  ): Promise<Verdict> {
    let verdict: Verdict;
    try {
      verdict =
        record.kind === 'payment'
          ? await reconcilePayment(this.cfg, record, until, signal)
          : await reconcileRefund(this.cfg, record, signal);
    } catch (error) {
      // The reads failed (the service is down, the caller aborted): nothing is known, nothing resent.
      const reason = error instanceof Error ? error.message : String(error);
      verdict = {
        outcome: 'unknown',
        candidates: [],
        facts: `the service's records could not be read (${reason})`,
      };
    }
    const { events } = this.cfg;
    if (events.wants('reconcile')) {
      const landed = verdict.outcome === 'landed' ? verdict.id : undefined;
      events.emit('reconcile', {
        callId,
        idempotencyKey: record.key,
        kind: record.kind,
        outcome: verdict.outcome,
        orderId: record.orderId,
        paymentId: record.kind === 'payment' ? landed : record.paymentId,
        refundId: record.kind === 'refund' ? landed : undefined,
        candidates:
          verdict.outcome === 'unknown' && verdict.candidates.length > 0 ? verdict.candidates : undefined,
      });
    }
    return verdict;
  }

  async #adopt<T>(
    call: IntentCall<T>,
    record: IntentRecord,
    owner: string,
    verdict: Verdict & { outcome: 'landed' },
    meta: ResponseMeta,
  ): Promise<T> {
    const data = call.parse(verdict.resource);
    await this.#finish(record, { state: 'landed', resultId: verdict.id, result: verdict.resource }, owner);
    meta.status = 200;
    this.cfg.log?.(
      'info',
      `${call.kind} ${record.key}: the lost answer was reconciled, ${call.kind} ${verdict.id} landed`,
    );
    return data;
  }

  async #unknown(
    record: IntentRecord,
    owner: string,
    error: CallError,
    verdict: Verdict & { outcome: 'unknown' },
  ): Promise<never> {
    await this.#finish(record, { state: 'unknown', candidates: verdict.candidates }, owner);
    error.outcomeUnknown = true;
    error.candidates = verdict.candidates.length > 0 ? verdict.candidates : undefined;
    restate(
      error,
      `The outcome is unknown: ${verdict.facts}. Do not charge again under a new key; rerun with { idempotencyKey: '${record.key}' } or call client.recover() later.`,
    );
    throw error;
  }

  async #fail(record: IntentRecord, owner: string, error: CallError, advice: string): Promise<never> {
    await this.#finish(record, { state: 'unknown' }, owner);
    restate(error, advice, true);
    throw error;
  }

  /** Writes the record with `changes` and releases the lease; the answer stands whatever the store says. */
  async #finish(base: IntentRecord, changes: Partial<IntentRecord>, owner: string): Promise<void> {
    const record = revise(base, changes);
    record.updatedAt = Date.now();
    const written = await this.#put(record, owner, true).catch((error: unknown) => {
      this.cfg.log?.(
        'error',
        `intent ${record.key} could not be recorded (${String(error)}); a rerun with its key reconciles it`,
      );
      return 'ok' as const;
    });
    if (written === 'taken') {
      this.cfg.log?.(
        'error',
        `intent ${record.key}: ${record.resultId} is already recorded for another key of order ${record.orderId}`,
      );
    }
  }

  #put(record: IntentRecord, owner: string, release: boolean) {
    return this.#store(() => this.cfg.store.put(record, owner, release));
  }

  /** A store call; its failure becomes a PaymentsError saying nothing more was sent (no extra await). */
  #store<R>(op: () => Promise<R>): Promise<R> {
    try {
      return op().then(undefined, storeFailure);
    } catch (error) {
      return Promise.reject(error).then(undefined, storeFailure);
    }
  }
}
