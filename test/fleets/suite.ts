// The set-up every fleet test file shares: an engine, a fleet of worker processes and the counting
// mock, started together before the file's tests and stopped after them.
import { afterAll, beforeAll, vi } from 'vitest';
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
