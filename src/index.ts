/**
 * The client of the Partner Payments Service, every error class and type, and the webhook helpers.
 * @module partner-payments
 */
// The package's main entry: re-exports only.
export type { ChargeParams, ChargeResult } from './charge.js';
export { PaymentsClient } from './client.js';
export type { APIResponse } from './core/call/api-promise.js';
export { APIPromise } from './core/call/api-promise.js';
export { ORDER_KEY_NAMESPACE } from './core/call/headers.js';
export type { Call, CallResult, CallRetry, Middleware } from './core/call/middleware.js';
export type { Page } from './core/call/pagination.js';
export { PagePromise } from './core/call/pagination.js';
// Every error class by name, without the init object the SDK builds its API errors from
// (test/house/public-surface.test.ts holds that no error class of the module is left out).
export type { ValidationIssue, WebhookVerificationReason } from './core/errors/api-errors.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  CallError,
  ConfigurationError,
  ConflictError,
  GoneError,
  IdempotencyConflictError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentResultTimeoutError,
  PaymentsError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResultTimeoutError,
  StoreDurabilityError,
  UnprocessableEntityError,
  WebhookVerificationError,
} from './core/errors/api-errors.js';
export type { RateLimitOptions, RateTier } from './core/limits/rate-limit.js';
export type {
  EndEvent,
  PaymentsClientEvents,
  ReconcileEvent,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  RetryReason,
  TokenEvent,
} from './core/observe/events.js';
export type { Logger, LogLevel } from './core/observe/logger.js';
// The option types a partner fills with OpenTelemetry's own Tracer and Meter; the shapes they are
// checked against (spans, counters, attributes) are OpenTelemetry's, so they stay unexported.
export type { PaymentsMeter } from './core/observe/metrics.js';
export type { PaymentsTracer } from './core/observe/tracing.js';
export type { PaymentsClientOptions } from './core/options/options.js';
export type { ClientOverrides } from './core/options/overrides.js';
export type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  RefundSighting,
} from './core/stores/intent-store.js';
export { MemoryIntentStore } from './core/stores/memory-intent-store.js';
export type { RateLimitLease, RateLimitStore } from './core/stores/rate-limit-store.js';
export { MemoryRateLimitStore } from './core/stores/rate-limit-store.js';
export type { BucketLimit } from './core/stores/token-bucket.js';
export type { StoredToken, TokenStore } from './core/stores/token-store.js';
export { MemoryTokenStore } from './core/stores/token-store.js';
// The per-call options, and the spec `client.request()` takes for an endpoint the SDK does not cover
// (the built types leave out the members its intent runner uses); what the core fills in and
// settles a call with is the core's own.
export type { RequestOptions, RequestSpec } from './core/types.js';
export type { ConfirmReturnOptions, HostedCheckoutReturn } from './hosted-checkout.js';
export { confirmHostedCheckoutReturn } from './hosted-checkout.js';
export type { RecoveredIntent, RecoverOptions } from './intents/recover.js';
export type { AwaitResultOptions, PollProgress } from './polling.js';
export { awaitPaymentResult, awaitRefundResult } from './polling.js';
// The resource classes are values too: a class's declaration is a value in the built types
// whatever the export says (scripts/check-package-types.mjs holds types and run time equal), so
// `client.orders instanceof Orders` holds.
export { LaunchTokens } from './resources/launch-tokens.js';
export { Locations } from './resources/locations.js';
export { Orders } from './resources/orders.js';
export { Payments } from './resources/payments.js';
export { Refunds } from './resources/refunds.js';
export { Specs } from './resources/specs.js';
export { WebhookEndpoints } from './resources/webhook-endpoints.js';
export type { ErrorCode, Scope } from './schemas/common.js';
export { DEFAULT_SCOPES, SCOPES } from './schemas/common.js';
export type { LaunchSession, LaunchToken, LaunchTokenCreateParams } from './schemas/launch-tokens.js';
export type { Level3, Level3LineItem } from './schemas/level3.js';
export type { Location, LocationListParams, LocationSummary } from './schemas/locations.js';
export type {
  Order,
  OrderCreated,
  OrderCreateParams,
  OrderPayment,
  OrderStatus,
  OrderWithCheckout,
} from './schemas/orders.js';
export type { Payment, PaymentCreateParams, PaymentStatus, VoidResult } from './schemas/payments.js';
export type { Refund, RefundCreateParams, RefundReason, RefundStatus } from './schemas/refunds.js';
export type { WebhookEndpointCreated, WebhookEndpointCreateParams } from './schemas/webhook-endpoints.js';
export { VERSION } from './version.js';
// Every type of the webhooks entry (event types, dedupe store, signature header), and its functions.
export type * from './webhooks/base.js';
export {
  createDeduplicator,
  createWebhookHandler,
  DEFAULT_DEDUPE_TTL_MS,
  EVENT_KINDS,
  MemoryDedupeStore,
  SIGNATURE_HEADER,
  signWebhookPayload,
  signWebhookPayloadAsync,
  verifyWebhook,
  verifyWebhookAsync,
  verifyWebhookRequest,
  webhookSignatureHeader,
} from './webhooks/base.js';
