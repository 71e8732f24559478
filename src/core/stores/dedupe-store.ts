/**
 * The contract of a webhook de-duplication store (the `store` of `createDeduplicator()`), the
 * MemoryDedupeStore default, and how long an event id is remembered by default.
 */
import { PaymentsError } from '../errors/api-errors.js';

/**
 * Where seen event ids are kept. `add` must be atomic (check and insert in one step) so that two
 * instances receiving the same redelivery at the same moment cannot both process it; a separate
 * `has` then `add` would let both through.
 *
 * Shared stores, for several instances of a receiver:
 * - Redis: `add` is `(await redis.set('webhook:' + id, '1', 'PX', ttlMs, 'NX')) === 'OK'`, `delete` is `DEL`.
 * - SQL: a table with a unique key on the event id; `add` is
 *   `INSERT INTO webhook_events (event_id, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING` and
 *   returns whether a row was inserted; `delete` removes the row; a periodic job deletes expired rows.
 *
 * @example
 * const redisStore: DedupeStore = {
 *   add: async (id, ttlMs) => (await redis.set(`webhook:${id}`, '1', 'PX', ttlMs, 'NX')) === 'OK',
 *   delete: async (id) => void (await redis.del(`webhook:${id}`)),
 * };
 */
export interface DedupeStore {
  /**
   * True when what it holds survives a restart of the process (Redis, Postgres, files on disk);
   * false, or absent, when it does not (the in-memory default).
   */
  readonly durable?: boolean;
  /** Records `id` for `ttlMs` unless it is already there; true when it was not (the caller claimed it). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets `id`, so that the next delivery of it is processed (processing failed). */
  delete(id: string): void | Promise<void>;
  /**
   * Whether `id` is held (added, not deleted, not expired), writing nothing. Optional: with it, the
   * webhook handler records a transition only once its handler succeeded and holds a short lease
   * while it runs, so a process killed mid-handler loses no transition (the next `catchUp` pass
   * runs it); without it, a transition is claimed before its handler runs, as an `event_id` is.
   */
  has?(id: string): boolean | Promise<boolean>;
}

/**
 * Options of {@link MemoryDedupeStore}.
 *
 * @example
 * const store = new MemoryDedupeStore({ maxEntries: 50_000 });
 */
export interface MemoryDedupeStoreOptions {
  /**
   * The most ids kept; past it the least recently seen are dropped (memory stays bounded, at the
   * price of letting a very old duplicate through).
   * @default 10000
   */
  maxEntries?: number;
}

/**
 * An in-process {@link DedupeStore}: least-recently-used ids with an expiry each, bounded in size.
 * Right for a single instance; several instances need a shared store (see {@link DedupeStore}).
 *
 * @example
 * const dedupe = createDeduplicator({ store: new MemoryDedupeStore({ maxEntries: 50_000 }) });
 */
export class MemoryDedupeStore implements DedupeStore {
  /** Its ids die with the process. */
  readonly durable: boolean = false;
  readonly #maxEntries: number;
  /** id -> expiry (epoch ms). A Map keeps insertion order: the first key is the least recently seen. */
  readonly #expiries = new Map<string, number>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    const max = options.maxEntries ?? 10_000;
    if (!Number.isInteger(max) || max < 1) throw new PaymentsError('maxEntries must be a positive integer.');
    this.#maxEntries = max;
  }

  /** How many ids are held (expired ones included until they are swept). */
  get size(): number {
    return this.#expiries.size;
  }

  add(id: string, ttlMs: number): boolean {
    const now = Date.now();
    const expiry = this.#expiries.get(id);
    this.#expiries.delete(id);
    if (expiry !== undefined && expiry > now) {
      this.#expiries.set(id, expiry); // seen again: now the most recent, same expiry
      return false;
    }
    this.#expiries.set(id, now + ttlMs);
    this.#evict(now);
    return true;
  }

  delete(id: string): void {
    this.#expiries.delete(id);
  }

  has(id: string): boolean {
    return (this.#expiries.get(id) ?? 0) > Date.now();
  }

  #evict(now: number): void {
    for (const [id, expiry] of this.#expiries) {
      if (this.#expiries.size <= this.#maxEntries && expiry > now) break;
      this.#expiries.delete(id);
    }
  }
}

/**
 * 24 hours: longer than the service's whole retry schedule (spec 6.5: 1 min + 5 min + 30 min + 2 h +
 * 12 h, about 14 h 36 min after the first attempt), with room to spare.
 *
 * @example
 * const dedupe = createDeduplicator({ ttlMs: 3 * DEFAULT_DEDUPE_TTL_MS }); // remember ids for 3 days
 */
export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60_000;
