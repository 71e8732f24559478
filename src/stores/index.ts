// The `partner-payments/stores` entry: fleet stores over the partner's own Redis or Postgres client,
// and durable stores on one machine's disk (node:fs loaded on first use, never at import).
// Re-exports only; no engine client is imported (duck-typed), so the package adds no dependency.

/** What an intent store of your own implements for `handler.catchUp` (docs/webhooks.md). */
export type { MadeResource, OrderNote } from '../core/stores/intent-store.js';
export type {
  FileDedupeStore,
  FileIntentStore,
  FileStoreFs,
  FileStoreHandle,
  FileStores,
  FileStoresOptions,
} from './files/index.js';
export { fileStores } from './files/index.js';
export type {
  PgPoolLike,
  PgQueryable,
  PostgresDedupeStore,
  PostgresStores,
  PostgresStoresOptions,
  ProcessOnceResult,
} from './postgres/index.js';
export { POSTGRES_DDL, postgresStores } from './postgres/index.js';
export type { RedisClientLike, RedisDurability, RedisStores, RedisStoresOptions } from './redis/index.js';
export { redisStores } from './redis/index.js';
