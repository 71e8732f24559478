// `postgresStores()`: the fleet token store, the webhook de-duplication store (with `processOnce`,
// exactly once in your own transaction) and the intent store on the partner's node-postgres pool
// (duck-typed: see pool.ts), one file per store; their tables are made on first use.
import { DEFAULT_DEDUPE_TTL_MS } from '../../core/stores/dedupe-store.js';
import type { IntentStore } from '../../core/stores/intent-store.js';
import type { TokenStore } from '../../core/stores/token-store.js';
import { DEDUPE_DDL, type PostgresDedupeStore, postgresDedupeStore } from './dedupe.js';
import { INTENTS_DDL, postgresIntentStore } from './intents.js';
import { type PgPoolLike, transaction } from './pool.js';
import { postgresTokenStore, TOKENS_DDL } from './tokens.js';

export type { PostgresDedupeStore, ProcessOnceResult } from './dedupe.js';
export type { PgPoolLike, PgQueryable } from './pool.js';

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
export const POSTGRES_DDL = `${TOKENS_DDL}\n${DEDUPE_DDL}\n${INTENTS_DDL}`;

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
  const schema = (): Promise<void> =>
    (ready ??= transaction(pool, async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('partner_payments_schema'))");
      await tx.query(POSTGRES_DDL);
    }).catch((error: unknown) => {
      ready = undefined; // try again on the next use
      throw error;
    }));
  const query = async (text: string, values: unknown[]) => {
    await schema();
    return pool.query(text, values);
  };
  return {
    tokenStore: postgresTokenStore(query),
    dedupeStore: postgresDedupeStore(pool, query, schema, dedupeTtlMs),
    intentStore: postgresIntentStore(query),
  };
}
