// The intent store as one call's runner uses it: a key's lease (waiting while another live call
// holds it), the writes under it, and a result recorded behind the call's answer.

import { APIUserAbortError } from '../core/errors/api-errors.js';
import { CallError } from '../core/errors/call-error.js';
import { IdempotencyConflictError } from '../core/errors/local-errors.js';
import type { LogFn } from '../core/observe/logger.js';
import { type IntentRecord, type IntentStore, revise } from '../core/stores/intent-store.js';
import { sleep } from '../internal/sleep.js';
import { storeFailure } from './failures.js';

/** How often a call waiting for another holder of its key looks again. */
const BUSY_POLL_MS = 250;

/** Leases and writes of one runner's calls on its intent store. */
export class Leases {
  /**
   * Per key, the landing write of a call that answered before its store acknowledged it: a call of
   * this client with the key waits for it rather than finding the lease held and polling.
   */
  readonly #landing = new Map<string, Promise<void>>();

  constructor(
    readonly store: IntentStore,
    private readonly log: LogFn | undefined,
  ) {}

  /** The key's lease, waiting while another live call holds it (within the call's deadline). */
  async acquire(
    draft: IntentRecord,
    owner: string,
    leaseMs: number,
    until: number,
    signal: AbortSignal | undefined,
    use: IntentRecord['kind'] | 'charge' = draft.kind,
  ) {
    await this.#landing.get(draft.key);
    for (;;) {
      const begun = await this.#call(() => this.store.begin(draft, owner, leaseMs));
      if (begun.status === 'acquired' || begun.status === 'done') return begun.record;
      if (begun.status === 'conflict') {
        const r = begun.record;
        const what = `order ${r.orderId}${r.paymentId ? `, payment ${r.paymentId}` : ''}, ${r.amountCents} cents`;
        throw new IdempotencyConflictError(use, draft.key, what);
      }
      const wait = Math.min(BUSY_POLL_MS, until - Date.now());
      if (wait <= 0) {
        const error = new CallError(
          `Another call holds idempotency key '${draft.key}' (its ${draft.kind} is in flight) and did not finish within this call's deadline; nothing was sent by this call. Call again with the same key to get its outcome.`,
        );
        error.idempotencyKey = draft.key;
        throw error;
      }
      await sleep(wait, signal, APIUserAbortError);
    }
  }

  /**
   * Records `changes` and releases the lease behind the call's answer (one store round trip on the
   * caller's path, the lease before the send). Until it lands the key's lease stays held, so a call
   * with the key anywhere finds it held, then landed, never new; a crash in between leaves an open
   * intent that the next call with the key, or recover(), settles by the service's records.
   */
  landBehind(base: IntentRecord, changes: Partial<IntentRecord>, owner: string): void {
    const key = base.key;
    const landing = this.finish(base, changes, owner).finally(() => {
      if (this.#landing.get(key) === landing) this.#landing.delete(key);
    });
    this.#landing.set(key, landing);
  }

  /** Writes the record with `changes` and releases the lease; the answer stands whatever the store says. */
  async finish(base: IntentRecord, changes: Partial<IntentRecord>, owner: string): Promise<void> {
    const record = revise(base, changes);
    record.updatedAt = Date.now();
    const written = await this.put(record, owner, true).catch((error: unknown) => {
      this.log?.(
        'error',
        `intent ${record.key} could not be recorded (${String(error)}); a rerun with its key reconciles it`,
      );
      return 'ok' as const;
    });
    if (written === 'taken') {
      this.log?.(
        'error',
        `intent ${record.key}: ${record.resultId} is already recorded for another key of order ${record.orderId}`,
      );
    }
  }

  /**
   * Renews `owner`'s lease of `leaseMs` on the intent's key every third of it until the returned
   * function is called (the call ended) or the lease is lost, and never past `until` (the call's
   * deadline). A failed renewal is retried at the next tick: the lease lapses only when the store
   * stays unreachable for most of it, and a call that takes over then reconciles by the service's
   * records, as after any lost answer.
   */
  keepAlive(
    intent: { key: string; orderId: string },
    owner: string,
    leaseMs: number,
    until: number,
  ): () => void {
    const renew = this.store.renew?.bind(this.store);
    if (!renew) return () => {};
    const timer = setInterval(() => {
      const ms = Math.min(leaseMs, until - Date.now());
      if (ms <= 0) return clearInterval(timer);
      renew(intent, owner, ms).then(
        (held) => {
          if (!held) clearInterval(timer);
        },
        (error: unknown) =>
          this.log?.('debug', `the lease of intent ${intent.key} could not be renewed: ${String(error)}`),
      );
    }, leaseMs / 3);
    (timer as { unref?: () => void }).unref?.();
    return () => clearInterval(timer);
  }

  put(record: IntentRecord, owner: string, release: boolean) {
    return this.#call(() => this.store.put(record, owner, release));
  }

  /** A store call; its failure becomes a PaymentsError saying nothing more was sent (no extra await). */
  #call<R>(op: () => Promise<R>): Promise<R> {
    try {
      return op().then(undefined, storeFailure);
    } catch (error) {
      return Promise.reject(error).then(undefined, storeFailure);
    }
  }
}
