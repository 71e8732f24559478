// The intent store contract (intent-store-contract.ts) against the memory store, Redis through
// node-redis and through ioredis, PostgreSQL 15 (real engines, as the fleet tests start them), and
// files on disk: one fileStores, and two on one directory taking the calls in turn (as two
// processes sharing it would).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { type IntentStore, MemoryIntentStore } from '../../src/index.js';
import { fileStores, postgresStores, type RedisClientLike, redisStores } from '../../src/stores/index.js';
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
const folders: string[] = [];
/** A fresh directory for a file store, removed after the file's tests. */
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-intents-'));
  folders.push(dir);
  return dir;
};
/** Two stores on one directory, each call going to the next in turn. */
function alternating(a: IntentStore, b: IntentStore): IntentStore {
  let turn = 0;
  const next = () => (turn++ % 2 === 0 ? a : b);
  return {
    durable: true,
    begin: (...args) => next().begin(...args),
    put: (...args) => next().put(...args),
    renew: (...args) => next().renew!(...args),
    get: (...args) => next().get(...args),
    forOrder: (...args) => next().forOrder(...args),
    unfinished: (...args) => next().unfinished(...args),
    noteRefund: (...args) => next().noteRefund(...args),
    refundsOf: (...args) => next().refundsOf(...args),
    noteOrder: (...args) => next().noteOrder!(...args),
    made: (...args) => next().made!(...args),
  };
}

afterAll(async () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
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
  ['fileStores(dir).intentStore', () => fileStores(folder()).intentStore],
  [
    'fileStores(dir).intentStore, two on one directory',
    () => {
      const dir = folder();
      return alternating(fileStores(dir).intentStore, fileStores(dir).intentStore);
    },
  ],
];

intentStoreContract(STORES);
