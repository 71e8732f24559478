// The intent store contract (intent-store-contract.ts) against the memory store, Redis through
// node-redis and through ioredis, and PostgreSQL 15 (real engines, as the fleet tests start them).
import { Redis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { type IntentStore, MemoryIntentStore } from '../../src/index.js';
import { postgresStores, type RedisClientLike, redisStores } from '../../src/stores/index.js';
import { type Engine, startPostgres, startRedis } from './engines.js';
import { intentStoreContract } from './intent-store-contract.js';

let redis: Engine;
let postgres: Engine;
let nodeRedis: RedisClientLike & { destroy(): void };
let ioredis: Redis;
let pool: pg.Pool;

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  await client.connect();
  nodeRedis = client as unknown as RedisClientLike & { destroy(): void };
  ioredis = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  ioredis.on('error', () => {});
  pool = new pg.Pool({ connectionString: postgres.url, max: 8 });
  pool.on('error', () => {}); // idle connections closed by the engine's shutdown
}, 120_000);
afterAll(async () => {
  nodeRedis?.destroy();
  ioredis?.disconnect();
  await pool?.end();
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

const STORES: [string, () => IntentStore][] = [
  ['MemoryIntentStore', () => new MemoryIntentStore()],
  ['redisStores(node-redis).intentStore', () => redisStores(nodeRedis).intentStore],
  ['redisStores(ioredis).intentStore', () => redisStores(ioredis).intentStore],
  ['postgresStores(pool).intentStore', () => postgresStores(pool).intentStore],
];

intentStoreContract(STORES);
