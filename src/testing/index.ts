/**
 * The stateful mock of the whole service, for tests and local development.
 * @module partner-payments/testing
 */
export type { MockClock, MockClockOptions } from './clock.js';
export { createMockService } from './create-mock-service.js';
export type { FixtureClient, FixturePartner, MockFixtures } from './domain/fixtures.js';
export { TEST_CARDS } from './domain/hosted-page.js';
export type { MockProcessor } from './domain/processor.js';
export type { MockSnapshot } from './domain/snapshot.js';
export { MockControlError, type MockControlErrorCode } from './engine/respond.js';
export { type FaultBody, type FaultPhase, type FaultSpec, FaultSpecError } from './faults/fault-spec.js';
export type { MockServer, MockService, MockWebhooks } from './mock-service.js';
export type { AutoProcessOptions, MockServiceOptions } from './options.js';
export {
  type FetchHandler,
  type LoopbackServer,
  type ServeOptions,
  serveFetch,
} from './servers/http-server.js';
export { type MswHandler, serveHandlers } from './servers/msw.js';
export type { RateTier } from './state.js';
export {
  type Delivery,
  type DeliveryAttempt,
  type EventEnvelope,
  RETRY_SCHEDULE_MS,
} from './webhooks/deliveries.js';
