// The token store on Postgres (`postgresStores(...).tokenStore`): one row per machine client with
// its token and a lock with an owner; a token is replaced only over the one the caller saw.
import type { TokenStore } from '../../core/stores/token-store.js';
import type { Query } from './pool.js';

/** The token table, part of POSTGRES_DDL. */
export const TOKENS_DDL = `CREATE TABLE IF NOT EXISTS partner_payments_tokens (
  key text PRIMARY KEY,
  token text,
  expires_at bigint NOT NULL DEFAULT 0,
  refresh_at bigint NOT NULL DEFAULT 0,
  lock_owner text,
  lock_until bigint NOT NULL DEFAULT 0
);`;

/** The token store over a query function that has made sure the tables exist (see index.ts). */
export function postgresTokenStore(query: Query): TokenStore {
  return {
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
}
