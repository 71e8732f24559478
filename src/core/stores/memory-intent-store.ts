// MemoryIntentStore, the default intent store: one process's memory, bounded (intent-store.ts has
// the contract it implements).
import type { IntentBegin, IntentRecord, IntentStore, RefundSighting } from './intent-store.js';

interface Held {
  record: IntentRecord;
  owner?: string | undefined;
  until: number;
}

/**
 * The default intent store: in this process's memory, shared by a client and the clients derived
 * from it. It keeps the guarantee within one process only: a fleet, or a restart after a crash,
 * needs a shared store (`redisStores(...).intentStore`, `postgresStores(...).intentStore`).
 *
 * Its memory is bounded: a finished intent (landed or not landed) is kept `ttlMs`, and at most
 * `maxIntents` intents are kept (the oldest finished ones go first; an open or unknown intent is
 * never dropped). A key used again after its intent was dropped is a new payment: keep reruns within
 * those bounds, or use a shared store, whose retention is its own.
 *
 * @example
 * const intentStore = new MemoryIntentStore();
 * const a = new PaymentsClient({ intentStore });
 * const b = new PaymentsClient({ intentStore }); // the same keys, one payment each
 */
export class MemoryIntentStore implements IntentStore {
  readonly #held = new Map<string, Held>();
  /**
   * Each order's keys, oldest first. A set, not an array: a pruning pass drops each key from its
   * order in constant time, where an array had to be shifted or rewritten (an order with thousands
   * of payments made every pass walk them all).
   */
  readonly #orders = new Map<string, Set<string>>();
  /** Refunds seen in events, by payment; in the order they were noted (oldest first). */
  readonly #refunds = new Map<string, Map<string, RefundSighting & { notedAt: number }>>();
  readonly #ttlMs: number;
  readonly #maxIntents: number;
  #begun = 0;
  /** When the store is full of intents it may not drop, the next pass waits until this call. */
  #fullUntil = 0;
  #noted = 0;

  /**
   * @param options.ttlMs How long a finished intent (landed or not landed) and a refund seen in an
   * event are kept: the same key after that is a new payment. @default 86400000 (24 hours)
   * @param options.maxIntents How many intents are kept at most (about 1 KB each with the resource
   * they produced); beyond it the oldest finished ones are dropped. @default 10000
   */
  constructor(options: { ttlMs?: number; maxIntents?: number } = {}) {
    this.#ttlMs = options.ttlMs ?? 24 * 3_600_000;
    this.#maxIntents = Math.max(1, options.maxIntents ?? 10_000);
  }

  /** How many intents are kept now. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Drops finished intents older than the TTL, and the oldest finished ones while over the cap (the
   * map is in creation order: oldest first).
   */
  #prune(now: number): void {
    // At the cap, a tenth goes at once: a pass walks the map from its oldest entry, so pruning
    // one at a time would cost a walk per call.
    let over =
      this.#held.size < this.#maxIntents
        ? 0
        : this.#held.size - this.#maxIntents + Math.ceil(this.#maxIntents / 10);
    for (const [key, held] of this.#held) {
      const expired = held.record.createdAt <= now - this.#ttlMs;
      if (!expired && over <= 0) break;
      const { state, updatedAt, orderId } = held.record;
      const finished = state === 'landed' || state === 'not_landed';
      if (finished && held.owner === undefined && (over > 0 || updatedAt <= now - this.#ttlMs)) {
        this.#held.delete(key);
        const keys = this.#orders.get(orderId);
        if (keys?.delete(key) && keys.size === 0) this.#orders.delete(orderId);
        over--;
      }
    }
  }

  async begin(draft: IntentRecord, owner: string, leaseMs: number): Promise<IntentBegin> {
    const begun = this.beginNow({ ...draft }, owner, leaseMs);
    return begun.status === 'busy' ? begun : { status: begun.status, record: { ...begun.record } };
  }

  async put(record: IntentRecord, owner: string, release: boolean): Promise<'ok' | 'lost' | 'taken'> {
    const held = this.#held.get(record.key);
    if (!held || held.owner !== owner) return 'lost';
    // Another key's result on the same order (an adoption racing another) is found among the
    // order's keys, which are few; a result on the success path comes through landNow, unchecked.
    const orderKeys = record.resultId === undefined ? undefined : this.#orders.get(record.orderId);
    if (orderKeys)
      for (const k of orderKeys)
        if (k !== record.key && this.#held.get(k)?.record.resultId === record.resultId) return 'taken';
    held.record = { ...record };
    if (release) held.owner = undefined;
    return 'ok';
  }

  /**
   * {@link begin} at once (the SDK's runner calls it on this class's own store: no await on the
   * success path). A new key's record is `draft` itself, kept by the store: the caller must not
   * change it (nor a `done` or `conflict` record, which are the store's own).
   * @internal
   */
  beginNow(draft: IntentRecord, owner: string, leaseMs: number): IntentBegin {
    const now = Date.now();
    // Every 256 calls, and at the cap (which open intents, never dropped, may keep it at: then a
    // pass every 256 calls too).
    const full = this.#held.size >= this.#maxIntents && this.#begun >= this.#fullUntil;
    if (++this.#begun % 256 === 0 || full) {
      this.#prune(now);
      if (full && this.#held.size >= this.#maxIntents) this.#fullUntil = this.#begun + 256;
    }
    const held = this.#held.get(draft.key);
    if (!held) {
      // The store keeps `draft` itself (landNow lands it in place); `begin` and the readers hand
      // out copies.
      this.#held.set(draft.key, { record: draft, owner, until: now + leaseMs });
      const keys = this.#orders.get(draft.orderId);
      if (keys) keys.add(draft.key);
      else this.#orders.set(draft.orderId, new Set([draft.key]));
      return { status: 'acquired', record: draft };
    }
    if (held.record.fingerprint !== draft.fingerprint) return { status: 'conflict', record: held.record };
    if (held.record.state === 'landed') return { status: 'done', record: held.record };
    if (held.owner !== undefined && held.owner !== owner && held.until > now)
      return { status: 'busy', until: held.until };
    held.owner = owner;
    held.until = now + leaseMs;
    return { status: 'acquired', record: { ...held.record } };
  }

  /**
   * A new key's first send created `resultId`: `draft`, the record {@link beginNow} kept, becomes
   * landed in place (no copy: nobody else holds it; `begin` and the readers hand out copies) and the
   * lease is released, at once. No "taken" check: the service created that id for this send, and
   * reconciliation adopts no payment while another key with its amount is in flight (`rivals` in
   * src/core/intents/match.ts), which this key was until now. `'lost'` (nothing written) when
   * `owner` no longer holds the key or its record was replaced.
   * @internal
   */
  landNow(
    draft: IntentRecord,
    owner: string,
    resultId: string | undefined,
    result: Record<string, unknown>,
  ): 'ok' | 'lost' {
    const held = this.#held.get(draft.key);
    if (!held || held.owner !== owner || held.record !== draft) return 'lost';
    draft.state = 'landed';
    draft.resultId = resultId;
    draft.result = result;
    draft.updatedAt = Date.now();
    held.owner = undefined;
    return 'ok';
  }

  async get(key: string): Promise<IntentRecord | undefined> {
    const held = this.#held.get(key);
    return held && { ...held.record };
  }

  async forOrder(orderId: string): Promise<IntentRecord[]> {
    const records: IntentRecord[] = [];
    for (const key of this.#orders.get(orderId) ?? []) {
      const held = this.#held.get(key);
      if (held) records.push({ ...held.record });
    }
    return records;
  }

  async unfinished(olderThanMs: number): Promise<IntentRecord[]> {
    const now = Date.now();
    return [...this.#held.values()]
      .filter(
        (h) =>
          (h.record.state === 'open' || h.record.state === 'unknown') &&
          (h.owner === undefined || h.until <= now) &&
          h.record.updatedAt <= now - olderThanMs,
      )
      .map((h) => ({ ...h.record }));
  }

  async noteRefund(sighting: RefundSighting): Promise<void> {
    const now = Date.now();
    if (++this.#noted % 256 === 0) this.#pruneRefunds(now);
    const seen = this.#refunds.get(sighting.paymentId) ?? new Map();
    seen.set(sighting.refundId, { ...sighting, notedAt: now });
    this.#refunds.set(sighting.paymentId, seen);
  }

  /** Drops the refunds of payments whose last sighting is older than the TTL (or over the cap). */
  #pruneRefunds(now: number): void {
    let over = this.#refunds.size - this.#maxIntents;
    for (const [paymentId, seen] of this.#refunds) {
      let last = 0;
      for (const s of seen.values()) last = Math.max(last, s.notedAt);
      if (over > 0 || last <= now - this.#ttlMs) {
        this.#refunds.delete(paymentId);
        over--;
      }
    }
  }

  async refundsOf(paymentId: string): Promise<RefundSighting[]> {
    return [...(this.#refunds.get(paymentId)?.values() ?? [])].map(({ notedAt: _, ...s }) => ({ ...s }));
  }
}
