// De-duplication of webhook deliveries on `event_id` (delivery is at least once): the DedupeStore
// contract, the in-memory MemoryDedupeStore, and `createDeduplicator()`.
import { PaymentsError } from '../core/errors/api-errors.js';

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
  /** Records `id` for `ttlMs` unless it is already there; true when it was not (the caller claimed it). */
  add(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets `id`, so that the next delivery of it is processed (processing failed). */
  delete(id: string): void | Promise<void>;
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

/**
 * Options of {@link createDeduplicator}.
 *
 * @example
 * const options: DeduplicatorOptions = { store: redisStore, ttlMs: 48 * 60 * 60_000 };
 */
export interface DeduplicatorOptions {
  /** Where seen ids are kept. @default new MemoryDedupeStore() */
  store?: DedupeStore;
  /**
   * How long an id is remembered. Keep it above the retry schedule's span (about 14 h 36 min); a
   * dead-letter replay later than this is processed again, so handlers should still be safe to repeat.
   * @default 86400000 (24 hours)
   */
  ttlMs?: number;
}

/**
 * What {@link Deduplicator.runOnce} did: skipped a duplicate, or ran the handler and kept its result.
 *
 * @example
 * const outcome = await dedupe.runOnce(event.event_id, () => handle(event));
 * if (!outcome.duplicate) console.log(outcome.result);
 */
export type DedupeOutcome<T> = { duplicate: true } | { duplicate: false; result: T };

/**
 * De-duplication of webhook deliveries on `event_id` (spec 6.6: delivery is at least once).
 *
 * @example
 * if (await dedupe.claim(event.event_id)) {
 *   try {
 *     await queue.push(event);
 *   } catch (err) {
 *     await dedupe.release(event.event_id); // let the service's retry through
 *     throw err;
 *   }
 * }
 */
export interface Deduplicator {
  /** Claims `eventId`: true the first time (process it), false for a redelivery (acknowledge it only). */
  claim(eventId: string): Promise<boolean>;
  /** Gives a claim back after processing failed, so the service's retry is processed. */
  release(eventId: string): Promise<void>;
  /**
   * Runs `handler` unless `eventId` was already claimed; when `handler` throws, the claim is released
   * and the error rethrown (answer 5xx and the service retries).
   */
  runOnce<T>(eventId: string, handler: () => T | Promise<T>): Promise<DedupeOutcome<T>>;
}

function checkId(eventId: unknown): string {
  if (typeof eventId !== 'string' || eventId.length === 0) {
    throw new PaymentsError('An event id must be a non-empty string (the event_id of a verified event).');
  }
  return eventId;
}

/**
 * Creates a de-duplicator on `event_id`. Claim an id before acting on an event: the service delivers at
 * least once, and a delivery that timed out on its side may arrive again while the first is running.
 *
 * @example
 * import { createDeduplicator, verifyWebhook } from 'partner-payments/webhooks';
 *
 * const dedupe = createDeduplicator(); // in memory; pass { store } for several instances
 *
 * const event = verifyWebhook(rawBody, signature, secret);
 * const outcome = await dedupe.runOnce(event.event_id, () => handle(event));
 * // outcome.duplicate: a redelivery, already handled: answer 2xx all the same
 */
export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const store = options.store ?? new MemoryDedupeStore();
  const ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new PaymentsError('ttlMs must be a positive number.');
  const claim = async (eventId: string) => (await store.add(checkId(eventId), ttlMs)) === true;
  const release = async (eventId: string) => {
    await store.delete(checkId(eventId));
  };
  return {
    claim,
    release,
    async runOnce(eventId, handler) {
      if (!(await claim(eventId))) return { duplicate: true };
      try {
        return { duplicate: false, result: await handler() };
      } catch (err) {
        await release(eventId);
        throw err;
      }
    },
  };
}

/** The `dedupeTimeoutMs` of a webhook handler, checked: a positive number of milliseconds. */
export function dedupeTimeoutOf(value: number | undefined): number {
  if (value === undefined) return 5_000;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new PaymentsError('dedupeTimeoutMs must be a positive number of milliseconds.');
  }
  return value;
}

/**
 * Claims `eventId`, or rejects when the store has not answered within `ms`. A claim that lands after
 * that is released, so that the service's retry of the event is processed rather than skipped.
 */
export async function claimWithin(dedupe: Deduplicator, eventId: string, ms: number): Promise<boolean> {
  const claim = dedupe.claim(eventId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PaymentsError(`The webhook de-duplication store did not answer within ${ms} ms.`)),
      ms,
    );
  });
  try {
    return await Promise.race([claim, timeout]);
  } catch (error) {
    claim.then((claimed) => (claimed ? dedupe.release(eventId) : undefined)).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
