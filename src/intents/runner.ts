// Exactly-once payments and refunds (api.md 17): one call under an idempotency key holds the key's
// lease in the intent store, sends through the core, and after a lost answer reconciles (with reads
// through the core) before it answers. It wraps the core; the core never calls back into it.
import { APIPromise, metaOf, responseMeta } from '../core/call/api-promise.js';
import { restate } from '../core/call/final-error.js';
import { CallError } from '../core/errors/call-error.js';
import type { EventSink } from '../core/observe/events.js';
import {
  type IntentBegin,
  type IntentRecord,
  type IntentStore,
  revise,
} from '../core/stores/intent-store.js';
import { MemoryIntentStore } from '../core/stores/memory-intent-store.js';
import type { ReconcileMode, RequestSpec, ResponseMeta } from '../core/types.js';
import { lostLease, storeFailure, tooLateToSend } from './failures.js';
import { type Intent, type IntentCall, newIntent, resultIdOf, sendOptions } from './intent.js';
import { Leases } from './leases.js';
import { type IntentIO, reconcile, type Verdict } from './reconcile.js';
import { type RecoveredIntent, type RecoverOptions, recoverIntents } from './recover.js';
import { explainRefusal, refusedAsRerun } from './refusals.js';

/** What the runner needs beyond reconciliation's reads. */
export interface IntentConfig extends IntentIO {
  events: EventSink;
  reconcile: ReconcileMode;
  deadlineMs: number | undefined;
  maxRetries: number;
  /** Sends one create request down through the core, as it is (without its key). */
  send(spec: RequestSpec): APIPromise<unknown>;
}

/**
 * Runs payment and refund creations exactly once per key: the client's requester hands it every
 * call whose spec carries an intent, and it sends down through the core (`cfg.send`).
 */
export class IntentRunner {
  /** The store when it is the SDK's own in-memory one (not a subclass's override): it answers at once. */
  readonly #memory: MemoryIntentStore | undefined;
  /** Lease owners are this id and a count: unique across a fleet at the cost of one UUID. */
  readonly #id = crypto.randomUUID();
  #calls = 0;
  /** The store's leases and writes of this runner's calls. */
  readonly #leases: Leases;
  /**
   * A store that survives a restart and renews leases: its calls hold a short lease, renewed while
   * they run, so that the keys of a process that died free up in seconds (docs/idempotency.md).
   */
  readonly #renews: boolean;

  constructor(private readonly cfg: IntentConfig) {
    const store = cfg.store;
    this.#leases = new Leases(store, cfg.log);
    this.#renews = store.durable === true && typeof store.renew === 'function';
    this.#memory =
      store instanceof MemoryIntentStore &&
      store.begin === MemoryIntentStore.prototype.begin &&
      store.put === MemoryIntentStore.prototype.put
        ? store
        : undefined;
  }

  /** The intent store (a derived client shares it: same keys, same payments). */
  get store(): IntentStore {
    return this.cfg.store;
  }

  /** Settles the store's intents that no live call holds (`client.recover()`). */
  recover(options?: RecoverOptions): Promise<RecoveredIntent[]> {
    return recoverIntents(this.cfg, options);
  }

  /**
   * A new key on the client's own in-memory store: begun, sent and finished with no store round
   * trip, so that the success path costs little beyond the request (the bench's intents figure).
   * Anything else, and a failed send, goes through {@link #run}.
   */
  once<T>(call: IntentCall): APIPromise<T> {
    let intent: Intent;
    try {
      intent = newIntent(call, this.cfg, `${this.#id}:${++this.#calls}`);
    } catch (error) {
      return APIPromise.rejected(error);
    }
    const memory = this.#memory;
    let begun: IntentBegin | undefined;
    try {
      begun = memory?.beginNow(intent.draft, intent.owner, intent.leaseMs);
    } catch (error) {
      return APIPromise.from(Promise.reject(error).then(undefined, storeFailure), responseMeta());
    }
    // Not the SDK's own store, or a key seen before: the loop (a lease taken here is its own).
    if (!memory || begun?.status !== 'acquired' || begun.record !== intent.draft) {
      const meta = responseMeta();
      return APIPromise.from(this.#run<T>(call, meta, intent, undefined), meta);
    }
    // The send's outcome, seen first: its intent lands before anyone awaiting the call sees the
    // data, and a failure goes to the loop, whose promise becomes the call's (`meta` is the send's,
    // which the loop's later sends update).
    const sending = this.#send(call, intent);
    const meta = metaOf(sending);
    const settled = sending.then(
      (data) => {
        this.#landed(intent.draft.kind, memory, intent, data);
        return data as T;
      },
      (error: unknown) => this.#run<T>(call, meta, intent, { error }),
    );
    return APIPromise.from(settled, meta);
  }

  /** One send of the call's request through the core: the caller's spec, under the intent's lease. */
  #send(call: IntentCall, intent: Intent): APIPromise<unknown> {
    const spec = Object.assign({}, call) as RequestSpec & { intent?: unknown };
    spec.intent = undefined;
    spec.options = sendOptions(call, intent.sendBy);
    spec.json = intent.json;
    return this.cfg.send(spec);
  }

  /** A new key's first send succeeded: its intent lands at once (it never throws: the answer stands). */
  #landed(kind: IntentRecord['kind'], memory: MemoryIntentStore, intent: Intent, data: unknown): void {
    let id: string | undefined;
    try {
      id = resultIdOf(kind, data);
      if (memory.landNow(intent.draft, intent.owner, id, data as Record<string, unknown>) === 'ok') return;
      // This call outlived its lease and another call with its key holds it: that one reconciles.
      this.cfg.log?.(
        'warn',
        `intent ${intent.key}: its lease passed to another call before ${kind} ${id} was recorded; that call reconciles it`,
      );
    } catch (error) {
      this.cfg.log?.(
        'error',
        `intent ${intent.key} could not be recorded (${String(error)}); a rerun with its key reconciles it`,
      );
    }
  }

  /**
   * @param first The failure of a new key's first send, begun by {@link once}: the loop starts
   * from it.
   */
  async #run<T>(
    call: IntentCall,
    meta: ResponseMeta,
    intent: Intent,
    first: { error: unknown } | undefined,
  ): Promise<T> {
    const holdMs = this.#renews ? Math.min(intent.leaseMs, LIVE_LEASE_MS) : intent.leaseMs;
    const { draft, owner, until } = intent;
    const held = first
      ? draft
      : await this.#leases.acquire(draft, owner, holdMs, until, call.options?.signal, intent.use);
    if (!this.#renews || held.state === 'landed') return this.#steps(call, meta, intent, first, held);
    const release = this.#leases.keepAlive(draft, owner, holdMs, until);
    try {
      return await this.#steps(call, meta, intent, first, held);
    } finally {
      release();
    }
  }

  /** The call's steps from `held`, the key's record as its lease was taken (or the new key's draft). */
  async #steps<T>(
    call: IntentCall,
    meta: ResponseMeta,
    intent: Intent,
    first: { error: unknown } | undefined,
    held: IntentRecord,
  ): Promise<T> {
    const opts = call.options;
    const { key, mode, until, owner, draft } = intent;
    const signal = opts?.signal;
    let record = held;
    const kind = draft.kind;
    if (record.state === 'landed') return call.response.parse(record.result ?? {}) as T;
    const fresh =
      record.createdAt === draft.createdAt && record.firstSentAt === draft.firstSentAt && record.sends === 1;
    if (!fresh && record.firstSentAt !== undefined && record.state !== 'not_landed') {
      // A call with this key was sent before (its holder died, or it ended unknown): learn what
      // happened before sending anything.
      const error = new CallError(
        `A ${kind} with idempotency key '${key}' was sent before and its outcome is not recorded.`,
      );
      error.outcomeUnknown = true;
      error.idempotencyKey = key;
      if (mode === 'off')
        return this.#fail(record, owner, error, "Reconcile first (reconcile: 'auto' or client.recover()).");
      const verdict = await reconcile(this.cfg, record, until, signal, undefined, until);
      if (verdict.outcome === 'landed') return this.#adopt(call, record, owner, verdict, meta);
      if (verdict.outcome === 'unknown') return this.#unknown(record, owner, error, verdict);
    }
    // Earlier sends provably did not land: a new series starts (its window for candidates too).
    if (record.state === 'not_landed') record = revise(record, { firstSentAt: undefined });
    for (let sent = 0; ; ) {
      if (!fresh || sent > 0) {
        // A send needs time to hear its answer: one that would leave with less makes an unknown
        // outcome of its own (a waiter that met a dead holder's lease may have little left). End
        // before sending instead: the record stays as the reconciliation left it.
        if (intent.sendBy - Date.now() < sendFloorMs(intent.leaseMs)) {
          await this.#leases.finish(record, {}, owner);
          throw tooLateToSend(kind, key, intent.sendBy - Date.now());
        }
        // A send is stamped on the wait clock (IntentIO.clock); the store's bookkeeping on real time.
        const at = this.cfg.clock.now();
        record = revise(record, {
          state: 'open',
          firstSentAt: record.firstSentAt ?? at,
          lastSentAt: at,
          sends: record.sends + 1,
          updatedAt: Date.now(),
        });
        if ((await this.#leases.put(record, owner, false)) === 'lost') throw lostLease(kind, key);
      }
      sent++;
      try {
        if (sent === 1 && first) throw first.error;
        const sending = this.#send(call, intent);
        const data = (await sending) as T;
        Object.assign(meta, metaOf(sending));
        // The caller has its payment now; its record lands behind it (Leases.landBehind).
        this.#leases.landBehind(
          record,
          { state: 'landed', resultId: resultIdOf(kind, data), result: data as Record<string, unknown> },
          owner,
        );
        return data;
      } catch (error) {
        if (!(error instanceof CallError)) throw error;
        error.idempotencyKey = key;
        // The request left at the latest now (after any wait for a token, a rate-limit slot or a
        // connection): the service may process it until settleMs after this, not after the stamp
        // taken before the send.
        record = revise(record, { lastSentAt: this.cfg.clock.now() });
        if (!error.outcomeUnknown) {
          // The service refused it (or it provably never went out): nothing of this key landed.
          await this.#leases.finish(record, { state: 'not_landed' }, owner);
          // Only a key of the caller's can be a rerun (one the SDK made for this call never is).
          if (opts?.idempotencyKey !== undefined && refusedAsRerun(this.cfg.store, kind, error))
            await explainRefusal(this.cfg, record, error, until, signal);
          throw error;
        }
        if (mode === 'off')
          return this.#fail(
            record,
            owner,
            error,
            `Or rerun with { idempotencyKey: '${key}', reconcile: 'auto' }: the SDK reconciles it without a second ${kind}.`,
          );
        const verdict = await reconcile(this.cfg, record, until, signal, error.callId, until);
        if (verdict.outcome === 'landed') return this.#adopt(call, record, owner, verdict, meta);
        if (verdict.outcome === 'unknown') return this.#unknown(record, owner, error, verdict);
        record = revise(record, { state: 'not_landed' });
        if (sent > this.cfg.maxRetries || Date.now() >= intent.sendBy) {
          await this.#leases.finish(record, {}, owner);
          error.outcomeUnknown = false;
          error.reconcile = undefined;
          restate(
            error,
            `The ${kind} did not land (reconciled with the order): nothing was charged, and the key may be used again.`,
          );
          throw error;
        }
        this.cfg.log?.(
          'warn',
          `${kind} ${key} did not land (reconciled); sending it again under the same key`,
        );
      }
    }
  }

  async #adopt<T>(
    call: IntentCall,
    record: IntentRecord,
    owner: string,
    verdict: Verdict & { outcome: 'landed' },
    meta: ResponseMeta,
  ): Promise<T> {
    const data = call.response.parse(verdict.resource) as T;
    const kind = record.kind;
    await this.#leases.finish(
      record,
      { state: 'landed', resultId: verdict.id, result: verdict.resource },
      owner,
    );
    meta.status = 200;
    this.cfg.log?.(
      'info',
      `${kind} ${record.key}: the lost answer was reconciled, ${kind} ${verdict.id} landed`,
    );
    return data;
  }

  async #unknown(
    record: IntentRecord,
    owner: string,
    error: CallError,
    verdict: Verdict & { outcome: 'unknown' },
  ): Promise<never> {
    await this.#leases.finish(record, { state: 'unknown', candidates: verdict.candidates }, owner);
    error.outcomeUnknown = true;
    error.candidates = verdict.candidates.length > 0 ? verdict.candidates : undefined;
    restate(
      error,
      `The outcome is unknown: ${verdict.facts}. Do not charge again under a new key; rerun with { idempotencyKey: '${record.key}' } or call client.recover() later.`,
    );
    throw error;
  }

  async #fail(record: IntentRecord, owner: string, error: CallError, advice: string): Promise<never> {
    await this.#leases.finish(record, { state: 'unknown' }, owner);
    restate(error, advice, true);
    throw error;
  }
}

/**
 * The lease a call holds on a store that renews it (`IntentStore.renew`): renewed every third of it
 * while the call runs, so a process that dies holding keys frees them within this time, and a
 * store unreachable for most of it lets another call take over (which reconciles first).
 */
const LIVE_LEASE_MS = 6_000;

/**
 * The least of a call's time a send may leave with: a second, or a quarter of a shorter lease (the
 * call's deadline). Less, and its answer could not be heard.
 */
function sendFloorMs(leaseMs: number): number {
  return Math.min(1_000, leaseMs / 4);
}
