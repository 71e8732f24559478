// The set-up every fleet test file shares: an engine, a fleet of worker processes and the counting
// mock, started together before the file's tests and stopped after them.
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, vi } from 'vitest';
import type { IntentStore } from '../../src/index.js';
import { postgresStores, redisStores } from '../../src/stores/index.js';
import type { MockServiceOptions } from '../../src/testing/index.js';
import { type CountingMock, startCountingMock } from './counting-mock.js';
import type { Engine } from './engines.js';
import { type Fleet, startFleet } from './fleet.js';

export interface FleetSuite {
  engine: Engine;
  fleet: Fleet;
  m: CountingMock;
}

export function useFleet(
  size: number,
  startEngine: () => Promise<Engine>,
  mock: MockServiceOptions,
): FleetSuite {
  vi.setConfig({ testTimeout: 60_000 });
  const suite = {} as FleetSuite;
  beforeAll(async () => {
    [suite.engine, suite.fleet, suite.m] = await Promise.all([
      startEngine(),
      startFleet(size),
      startCountingMock(mock),
    ]);
  }, 120_000);
  afterAll(async () => {
    await suite.fleet?.close();
    await suite.m?.close();
    await suite.engine?.stop();
  });
  return suite;
}

/**
 * The suite's shared intent store as the test process reads it (an ioredis client or a pg pool of its
 * own on the suite's engine, opened before the file's tests and closed after them): the runs audit it
 * and wait on it after a kill.
 */
export function useIntentStore(suite: FleetSuite, engine: 'redis' | 'postgres'): () => IntentStore {
  let store: IntentStore | undefined;
  let close: (() => unknown) | undefined;
  beforeAll(() => {
    if (engine === 'redis') {
      const redis = new Redis(suite.engine.url, { maxRetriesPerRequest: 1 });
      redis.on('error', () => {});
      store = redisStores(redis).intentStore;
      close = () => redis.disconnect();
    } else {
      const pool = new pg.Pool({ connectionString: suite.engine.url, max: 4 });
      pool.on('error', () => {}); // idle connections closed by the engine's shutdown
      store = postgresStores(pool).intentStore;
      close = () => pool.end();
    }
  });
  afterAll(() => close?.());
  return () => {
    if (!store) throw new Error('useIntentStore: the store opens before the first test');
    return store;
  };
}
