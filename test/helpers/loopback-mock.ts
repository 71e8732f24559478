// The mock service on a loopback port for one test file: started once, reset before each test.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  createMockService,
  type LoopbackServer,
  type MockService,
  serveFetch,
} from '../../src/testing/index.js';

export interface LoopbackMock {
  mock: MockService;
  server: LoopbackServer;
}

/** Registers the file's hooks; the mock and its server are set once `beforeAll` ran. */
export function loopbackMock(): LoopbackMock {
  const loop = {} as LoopbackMock;
  beforeAll(async () => {
    loop.mock = createMockService();
    loop.server = await serveFetch(loop.mock.fetch);
  });
  afterAll(() => loop.server.close());
  beforeEach(() => loop.mock.reset());
  return loop;
}
