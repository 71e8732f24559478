/**
 * The stateful mock of the whole service, for tests and local development.
 * @module partner-payments/testing
 */
export type { MockClock, MockClockOptions } from './clock.js';
export type { AutoProcessOptions, MockServiceOptions } from './core.js';
export { type Delivery, type DeliveryAttempt, type EventEnvelope, RETRY_SCHEDULE_MS } from './dispatcher.js';
export { type FaultBody, type FaultPhase, type FaultSpec, FaultSpecError } from './fault-spec.js';
export type { FixtureClient, FixturePartner, MockFixtures } from './fixtures.js';
export { TEST_CARDS } from './hosted-page.js';
export { type FetchHandler, type LoopbackServer, type ServeOptions, serveFetch } from './http-server.js';
export { serveHandlers } from './msw.js';
export type { MockProcessor } from './processor.js';
export { MockControlError, type MockControlErrorCode } from './respond.js';
export { createMockService, type MockServer, type MockService, type MockWebhooks } from './service.js';
export type { MockSnapshot } from './snapshot.js';
export type { RateTier } from './state.js';
