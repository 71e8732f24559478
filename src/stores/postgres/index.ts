// `postgresStores()`: the fleet token store and the webhook de-duplication store (with
// `processOnce`, exactly once in your own transaction) on the partner's node-postgres pool.
import { DEFAULT_DEDUPE_TTL_MS, type DedupeStore } from '../../core/stores/dedupe-store.js';
import type { IntentStore } from '../../core/stores/intent-store.js';
import type { TokenStore } from '../../core/stores/token-store.js';
import { INTENTS_DDL, postgresIntentStore } from './intents.js';

/**
 * A client that runs parameterised queries: a node-postgres `PoolClient`, or anything alike.
 *
 * @example
 * const tx: PgQueryable = await pool.connect();
 */
export interface PgQueryable {
  /** Runs one parameterised statement (`$1`, `$2`, ...) and resolves its rows. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * A pool {@link postgresStores} accepts: a node-postgres `Pool`, or anything with `query` and a
 * `connect` that lends a client to release.
 *
 * @example
 * import pg from 'pg';
 * const pool: PgPoolLike = new pg.Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 2_000 });
 */
export interface PgPoolLike extends PgQueryable {
  /** Lends a client from the pool, for one transaction; the store calls `release` when done. */
  connect(): Promise<
    PgQueryable & {
      /** Returns the client to the pool (an error or `true` destroys it instead). */
      release(error?: Error | boolean): void;
    }
  >;
}

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

/**
 * What {@link postgresStores} returns.
 *
 * @example
 * const { tokenStore, dedupeStore }: PostgresStores = postgresStores(pool);
 */
export interface PostgresStores {
  /** For the client's `tokenStore` option. Holds live access tokens: guard the table like the secret. */
  tokenStore: TokenStore;
  /** Webhook de-duplication, with `processOnce` for exactly-once effects in your database. */
  dedupeStore: PostgresDedupeStore;
  /**
   * For the client's `intentStore` option: payment and refund intents per idempotency key, for the
   * whole fleet and across restarts (docs/idempotency.md). Holds ids, amounts and the resources the
   * keys produced, no secret.
   */
  intentStore: IntentStore;
}

/**
 * Options of {@link postgresStores}.
 *
 * @example
 * const stores = postgresStores(pool, { dedupeTtlMs: 7 * 24 * 60 * 60_000 });
 */
export interface PostgresStoresOptions {
  /** How long `processOnce` remembers an event id. @default 86400000 (24 hours) */
  dedupeTtlMs?: number;
}

/**
 * The tables of {@link postgresStores}. They are created on first use (under an advisory lock, so
 * instances starting together do not race); apply this yourself when the application's role may
 * not create tables. Delete rows whose `expires_at` (epoch ms) has passed from time to time.
 *
 * @example
 * await pool.query(POSTGRES_DDL); // in your migrations
 */
export const POSTGRES_DDL = `CREATE TABLE IF NOT EXISTS partner_payments_tokens (
  key text PRIMARY KEY,
  token text,
  expires_at bigint NOT NULL DEFAULT 0,
  refresh_at bigint NOT NULL DEFAULT 0,
  lock_owner text,
  lock_until bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS partner_payments_webhook_events (
  event_id text PRIMARY KEY,
  expires_at bigint NOT NULL
);
${INTENTS_DDL}`;

const CLAIM = `INSERT INTO partner_payments_webhook_events AS e (event_id, expires_at) VALUES ($1, $2)
ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE e.expires_at <= $3
RETURNING 1`;

/**
 * Fleet stores on Postgres through your node-postgres pool (or anything alike): the package adds no
 * dependency. Creates its tables on first use (see {@link POSTGRES_DDL}).
 *
 * @example
 * import pg from 'pg';
 * import { PaymentsClient } from 'partner-payments';
 * import { postgresStores } from 'partner-payments/stores';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 2_000 });
 * const { tokenStore, dedupeStore } = postgresStores(pool);
 * const client = new PaymentsClient({ tokenStore });
 */
export function postgresStores(pool: PgPoolLike, options: PostgresStoresOptions = {}): PostgresStores {
  const dedupeTtlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  let ready: Promise<void> | undefined;
  const schema = () => {
    ready ??= transaction(pool, async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('partner_payments_schema'))");
      await tx.query(POSTGRES_DDL);
    }).catch((error: unknown) => {
      ready = undefined; // try again on the next use
      throw error;
    });
    return ready;
  };
  const query = async (text: string, values: unknown[]) => {
    await schema();
    return pool.query(text, values);
  };
  const tokenStore: TokenStore = {
    async get(key) {
      const { rows } = await query(
        'SELECT token, expires_at, refresh_at FROM partner_payments_tokens WHERE key = $1 AND token IS NOT NULL AND expires_at > $2',
        [key, Date.now()],
      );
      const row = rows[0] as { token: string; expires_at: string; refresh_at: string } | undefined;
      return (
        row && { value: row.token, expiresAt: Number(row.expires_at), refreshAt: Number(row.refresh_at) }
      );
    },
    async replace(key, token, replaces) {
      const { rowCount } = await query(
        `INSERT INTO partner_payments_tokens AS t (key, token, expires_at, refresh_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO UPDATE SET token = EXCLUDED.token, expires_at = EXCLUDED.expires_at, refresh_at = EXCLUDED.refresh_at
WHERE t.token IS NULL OR t.expires_at <= $5 OR t.token = $6 RETURNING 1`,
        [key, token.value, token.expiresAt, token.refreshAt, Date.now(), replaces ?? null],
      );
      return rowCount === 1;
    },
    async lock(key, owner, ttlMs) {
      const now = Date.now();
      const { rowCount } = await query(
        `INSERT INTO partner_payments_tokens AS t (key, lock_owner, lock_until) VALUES ($1, $2, $3)
ON CONFLICT (key) DO UPDATE SET lock_owner = EXCLUDED.lock_owner, lock_until = EXCLUDED.lock_until
WHERE t.lock_until <= $4 OR t.lock_owner = $2 RETURNING 1`,
        [key, owner, now + Math.ceil(ttlMs), now],
      );
      return rowCount === 1;
    },
    async unlock(key, owner) {
      await query(
        'UPDATE partner_payments_tokens SET lock_owner = NULL, lock_until = 0 WHERE key = $1 AND lock_owner = $2',
        [key, owner],
      );
    },
  };
  const dedupeStore: PostgresDedupeStore = {
    async add(id, ttlMs) {
      const now = Date.now();
      return (await query(CLAIM, [id, now + ttlMs, now])).rowCount === 1;
    },
    async delete(id) {
      await query('DELETE FROM partner_payments_webhook_events WHERE event_id = $1', [id]);
    },
    async processOnce(event, handler) {
      const id = typeof event === 'string' ? event : event?.event_id;
      if (typeof id !== 'string' || id === '')
        throw new TypeError('processOnce needs an event with an event_id.');
      await schema();
      return transaction(pool, async (tx) => {
        const now = Date.now();
        // A concurrent delivery of the same id waits here until the first one commits or rolls back.
        const claimed = (await tx.query(CLAIM, [id, now + dedupeTtlMs, now])).rowCount === 1;
        if (!claimed) return { processed: false };
        return { processed: true, result: await handler(tx) };
      });
    },
  };
  return { tokenStore, dedupeStore, intentStore: postgresIntentStore(query) };
}

/** Runs `work` in a transaction on a pooled client: commit when it returns, roll back when it throws. */
async function transaction<T>(pool: PgPoolLike, work: (tx: PgQueryable) => Promise<T>): Promise<T> {
  const tx = await pool.connect();
  let broken: Error | undefined;
  try {
    await tx.query('BEGIN');
    const result = await work(tx);
    await tx.query('COMMIT');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    tx.release(broken); // a client whose rollback failed is discarded, not reused
  }
}
