// The webhook de-duplication store on Postgres (`postgresStores(...).dedupeStore`): one row per event
// id, and `processOnce`, which records the id in the same transaction as the partner's own writes.
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import { type PgPoolLike, type PgQueryable, type Query, transaction } from './pool.js';

/**
 * What {@link PostgresDedupeStore.processOnce} resolves to.
 *
 * @example
 * const outcome: ProcessOnceResult<number> = await dedupeStore.processOnce(event, work);
 * if (!outcome.processed) console.log('already processed');
 */
export type ProcessOnceResult<T> = { processed: true; result: T } | { processed: false };

/**
 * The Postgres de-duplication store: the {@link DedupeStore} contract, plus `processOnce`, which
 * records the event id in the same transaction as your own writes.
 *
 * @example
 * const outcome = await dedupeStore.processOnce(event, async (tx) => {
 *   await tx.query('UPDATE orders SET paid = true WHERE order_id = $1', [event.data.order_id]);
 * });
 */
export interface PostgresDedupeStore extends DedupeStore {
  add(id: string, ttlMs: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Whether `id` is held and not expired (a read: writes nothing). */
  has(id: string): Promise<boolean>;
  /**
   * Runs `handler` inside a transaction that also records `event`'s id, so the event takes effect
   * exactly once even when this process crashes mid-way. Resolves `{ processed: false }` without
   * running `handler` when the event was processed already; when `handler` throws, rolls back (the
   * id is not recorded) and rethrows, so the service's redelivery runs it again.
   */
  processOnce<T>(
    event: { event_id: string } | string,
    handler: (tx: PgQueryable) => T | Promise<T>,
  ): Promise<ProcessOnceResult<T>>;
}

/** The table of seen event ids, part of POSTGRES_DDL. */
export const DEDUPE_DDL = `CREATE TABLE IF NOT EXISTS partner_payments_webhook_events (
  event_id text PRIMARY KEY,
  expires_at bigint NOT NULL
);`;

const CLAIM = `INSERT INTO partner_payments_webhook_events AS e (event_id, expires_at) VALUES ($1, $2)
ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE e.expires_at <= $3
RETURNING 1`;

/**
 * The de-duplication store over the pool and a query function that has made sure the tables exist;
 * `schema` makes sure of them before a transaction; `processOnce` remembers an id `processOnceTtlMs`.
 */
export function postgresDedupeStore(
  pool: PgPoolLike,
  query: Query,
  schema: () => Promise<void>,
  processOnceTtlMs: number,
): PostgresDedupeStore {
  return {
    durable: true,
    async add(id, ttlMs) {
      const now = Date.now();
      return (await query(CLAIM, [id, now + ttlMs, now])).rowCount === 1;
    },
    async delete(id) {
      await query('DELETE FROM partner_payments_webhook_events WHERE event_id = $1', [id]);
    },
    async has(id) {
      const { rowCount } = await query(
        'SELECT 1 FROM partner_payments_webhook_events WHERE event_id = $1 AND expires_at > $2',
        [id, Date.now()],
      );
      return rowCount === 1;
    },
    async processOnce(event, handler) {
      const id = typeof event === 'string' ? event : event?.event_id;
      if (typeof id !== 'string' || id === '')
        throw new TypeError('processOnce needs an event with an event_id.');
      await schema();
      return transaction(pool, async (tx) => {
        const now = Date.now();
        // A concurrent delivery of the same id waits here until the first one commits or rolls back.
        const claimed = (await tx.query(CLAIM, [id, now + processOnceTtlMs, now])).rowCount === 1;
        if (!claimed) return { processed: false };
        return { processed: true, result: await handler(tx) };
      });
    },
  };
}
