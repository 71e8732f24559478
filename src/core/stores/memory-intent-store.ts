// MemoryIntentStore, the default intent store: one process's memory, bounded (see intent-store.ts).
import type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  MadeResource,
  OrderNote,
  RefundSighting,
} from './intent-store.js';
import { madeOf } from './intent-store.js';

/**
 * One key's intent as the store keeps it: the record's fields and the key's lease in one object,
 * every time an offset in ms from the store's epoch. An intent is kept for thousands of calls, so
 * it outlives V8's young generation: each object and boxed number it holds is copied twice and then
 * marked by every full collection. A record plus a lease object held two objects and five boxed
 * numbers (an epoch time is not a small integer); this holds one object and small integers (up to
 * about 24 days after the epoch; later times are boxed again, and still exact: times are whole ms).
 */
class Kept {
  readonly key: string;
  readonly kind: IntentRecord['kind'];
  // Set by write(), which the constructor calls.
  fingerprint!: string;
  orderId!: string;
  paymentId: string | undefined;
  amountCents!: number;
  method: string | undefined;
  state!: IntentRecord['state'];
  firstSentAt: number | undefined;
  lastSentAt: number | undefined;
  sends!: number;
  resultId: string | undefined;
  result: Record<string, unknown> | undefined;
  candidates: string[] | undefined;
  createdAt!: number;
  updatedAt!: number;
  /** The lease's holder, undefined when released. */
  owner: string | undefined;
  until: number;

  constructor(record: IntentRecord, epoch: number, owner: string, until: number) {
    this.key = record.key;
    this.kind = record.kind;
    this.write(record, epoch);
    this.owner = owner;
    this.until = until - epoch;
  }

  /** Takes every field of `record` (its key's). */
  write(record: IntentRecord, epoch: number): void {
    this.fingerprint = record.fingerprint;
    this.orderId = record.orderId;
    this.paymentId = record.paymentId;
    this.amountCents = record.amountCents;
    this.method = record.method;
    this.state = record.state;
    this.firstSentAt = shift(record.firstSentAt, -epoch);
    this.lastSentAt = shift(record.lastSentAt, -epoch);
    this.sends = record.sends;
    this.resultId = record.resultId;
    this.result = record.result;
    this.candidates = record.candidates;
    this.createdAt = record.createdAt - epoch;
    this.updatedAt = record.updatedAt - epoch;
  }

  /** The record, as a new object (the store hands out copies). */
  record(epoch: number): IntentRecord {
    return {
      key: this.key,
      kind: this.kind,
      fingerprint: this.fingerprint,
      orderId: this.orderId,
      paymentId: this.paymentId,
      amountCents: this.amountCents,
      method: this.method,
      state: this.state,
      firstSentAt: shift(this.firstSentAt, epoch),
      lastSentAt: shift(this.lastSentAt, epoch),
      sends: this.sends,
      resultId: this.resultId,
      result: this.result,
      candidates: this.candidates,
      createdAt: this.createdAt + epoch,
      updatedAt: this.updatedAt + epoch,
    };
  }
}

/** An optional time moved by `by` ms: to an offset from the epoch (`-epoch`) and back (`epoch`). */
function shift(time: number | undefined, by: number): number | undefined {
  return time === undefined ? undefined : time + by;
}

/**
 * The default intent store: in this process's memory, shared by a client and the clients derived
 * from it. It keeps the guarantee within one process only: a fleet, or a restart after a crash,
 * needs a shared store (`redisStores(...).intentStore`, `postgresStores(...).intentStore`).
 *
 * Its memory is bounded: a finished intent (landed or not landed) is kept `ttlMs`, and at most
 * `maxIntents` intents are kept (the finished ones created first go first, but a key finished late,
 * after an unknown outcome or a rerun, counts from when it finished; an open or unknown intent is
 * never dropped). A key used again after its intent was dropped is a new payment: keep reruns within
 * those bounds, or use a shared store, whose retention is its own.
 *
 * @example
 * const intentStore = new MemoryIntentStore();
 * const a = new PaymentsClient({ intentStore });
 * const b = new PaymentsClient({ intentStore }); // the same keys, one payment each
 */
export class MemoryIntentStore implements IntentStore {
  /** Its intents die with the process. */
  readonly durable: boolean = false;
  readonly #held = new Map<string, Kept>();
  /** What the kept times count from (ms): the store's creation. */
  readonly #epoch = Date.now();
  /**
   * Each order's keys, oldest first. A set, not an array: a pruning pass drops each key from its
   * order in constant time, where an array had to be shifted or rewritten (an order with thousands
   * of payments made every pass walk them all).
   */
  readonly #orders = new Map<string, Set<string>>();
  /** Refunds seen in events, by payment; in the order they were noted (oldest first). */
  readonly #refunds = new Map<string, Map<string, RefundSighting & { notedAt: number }>>();
  /** Orders noted under a key: order id -> creation time (epoch ms), oldest noted first. */
  readonly #notedOrders = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #maxIntents: number;
  #begun = 0;
  /** When the store is full of intents it may not drop, the next pass waits until this call. */
  #fullUntil = 0;
  #noted = 0;

  /**
   * @param options.ttlMs How long a finished intent (landed or not landed) and a refund seen in an
   * event are kept: the same key after that is a new payment. @default 86400000 (24 hours)
   * @param options.maxIntents How many intents are kept at most (about 0.6 KB each with the resource
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

  /** Drops finished intents past the TTL, and the oldest finished while over the cap (map order). */
  #prune(now: number): void {
    // At the cap, a tenth goes at once: a pass walks the map from its oldest entry, so pruning
    // one at a time would cost a walk per call.
    let over =
      this.#held.size < this.#maxIntents
        ? 0
        : this.#held.size - this.#maxIntents + Math.ceil(this.#maxIntents / 10);
    // Kept times count from the epoch.
    const old = now - this.#ttlMs - this.#epoch;
    for (const [key, kept] of this.#held) {
      const expired = kept.createdAt <= old;
      if (!expired && over <= 0) break;
      const finished = kept.state === 'landed' || kept.state === 'not_landed';
      if (finished && kept.owner === undefined && (over > 0 || kept.updatedAt <= old)) {
        this.#held.delete(key);
        const keys = this.#orders.get(kept.orderId);
        if (keys?.delete(key) && keys.size === 0) this.#orders.delete(kept.orderId);
        over--;
      }
    }
  }

  async begin(draft: IntentRecord, owner: string, leaseMs: number): Promise<IntentBegin> {
    const begun = this.beginNow(draft, owner, leaseMs);
    // A new key answers with `draft` itself; every other record is a copy already.
    return begun.status === 'acquired' && begun.record === draft
      ? { status: 'acquired', record: { ...draft } }
      : begun;
  }

  async put(record: IntentRecord, owner: string, release: boolean): Promise<'ok' | 'lost' | 'taken'> {
    const kept = this.#held.get(record.key);
    if (!kept || kept.owner !== owner) return 'lost';
    // Another key's result on the same order (an adoption racing another) is found among the
    // order's keys, which are few; a result on the success path comes through landNow, unchecked.
    const orderKeys = record.resultId === undefined ? undefined : this.#orders.get(record.orderId);
    if (orderKeys)
      for (const k of orderKeys)
        if (k !== record.key && this.#held.get(k)?.resultId === record.resultId) return 'taken';
    kept.write(record, this.#epoch);
    if (release) {
      kept.owner = undefined;
      // Finished late (a rerun, a reconciliation): to the newest end, so the cap drops it last.
      this.#held.delete(record.key);
      this.#held.set(record.key, kept);
    }
    return 'ok';
  }

  /**
   * {@link begin} at once (the SDK's runner calls it on this class's own store: no await on the
   * success path). A new key acquired answers with `draft` itself (which the store copies: the
   * caller keeps it); any other answer's record is a copy.
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
    const epoch = this.#epoch;
    const kept = this.#held.get(draft.key);
    if (!kept) {
      this.#held.set(draft.key, new Kept(draft, epoch, owner, now + leaseMs));
      const keys = this.#orders.get(draft.orderId);
      if (keys) keys.add(draft.key);
      else this.#orders.set(draft.orderId, new Set([draft.key]));
      return { status: 'acquired', record: draft };
    }
    if (kept.fingerprint !== draft.fingerprint) return { status: 'conflict', record: kept.record(epoch) };
    if (kept.state === 'landed') return { status: 'done', record: kept.record(epoch) };
    if (kept.owner !== undefined && kept.owner !== owner && kept.until > now - epoch)
      return { status: 'busy', until: kept.until + epoch };
    kept.owner = owner;
    kept.until = now + leaseMs - epoch;
    return { status: 'acquired', record: kept.record(epoch) };
  }

  /**
   * A new key's first send created `resultId`: its intent, begun by {@link beginNow} with the lease
   * `owner` holds, lands and the lease is released, at once. No "taken" check: the service created
   * that id for this send, and reconciliation adopts no payment while another key with its amount
   * is in flight (`rivals` in src/intents/match.ts), which this key was until now. `'lost'`
   * (nothing written) when `owner` no longer holds the key (a lease is one call's: the runner's
   * owners are unique).
   * @internal
   */
  landNow(
    draft: IntentRecord,
    owner: string,
    resultId: string | undefined,
    result: Record<string, unknown>,
  ): 'ok' | 'lost' {
    const kept = this.#held.get(draft.key);
    if (!kept || kept.owner !== owner) return 'lost';
    kept.state = 'landed';
    kept.resultId = resultId;
    kept.result = result;
    kept.updatedAt = Date.now() - this.#epoch;
    kept.owner = undefined;
    return 'ok';
  }

  async renew(intent: { key: string }, owner: string, leaseMs: number): Promise<boolean> {
    const kept = this.#held.get(intent.key);
    if (kept?.owner !== owner) return false;
    kept.until = Date.now() + leaseMs - this.#epoch;
    return true;
  }

  async get(key: string): Promise<IntentRecord | undefined> {
    return this.#held.get(key)?.record(this.#epoch);
  }

  async forOrder(orderId: string): Promise<IntentRecord[]> {
    const records: IntentRecord[] = [];
    for (const key of this.#orders.get(orderId) ?? []) {
      const kept = this.#held.get(key);
      if (kept) records.push(kept.record(this.#epoch));
    }
    return records;
  }

  async unfinished(olderThanMs: number): Promise<IntentRecord[]> {
    const now = Date.now() - this.#epoch;
    const records: IntentRecord[] = [];
    for (const kept of this.#held.values()) {
      if (
        (kept.state === 'open' || kept.state === 'unknown') &&
        (kept.owner === undefined || kept.until <= now) &&
        kept.updatedAt <= now - olderThanMs
      )
        records.push(kept.record(this.#epoch));
    }
    return records;
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

  async noteOrder(order: OrderNote): Promise<void> {
    if (this.#notedOrders.has(order.orderId)) return;
    // Bounded as the intents are: past the TTL or over the cap, the oldest noted go first.
    const old = Date.now() - this.#ttlMs;
    for (const [id, createdAt] of this.#notedOrders) {
      if (createdAt > old && this.#notedOrders.size < this.#maxIntents) break;
      this.#notedOrders.delete(id);
    }
    this.#notedOrders.set(order.orderId, order.createdAt);
  }

  async made(window: { from: number; to: number }): Promise<MadeResource[]> {
    const { from, to } = window;
    const found: MadeResource[] = [];
    for (const [orderId, createdAt] of this.#notedOrders)
      if (createdAt >= from && createdAt <= to) found.push({ kind: 'order', orderId, createdAt });
    for (const kept of this.#held.values()) {
      const createdAt = kept.createdAt + this.#epoch;
      if (createdAt < from || createdAt > to) continue;
      const made = madeOf(kept.record(this.#epoch));
      if (made) found.push(made);
    }
    return found;
  }

  async refundsOf(paymentId: string): Promise<RefundSighting[]> {
    return [...(this.#refunds.get(paymentId)?.values() ?? [])].map(({ notedAt: _, ...s }) => ({ ...s }));
  }
}
