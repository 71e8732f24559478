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
export * from './core/errors/api-errors.js';
export type { RateLimitOptions, RateTier } from './core/limits/rate-limit.js';
export { RATE_TIERS } from './core/limits/rate-limit.js';
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
export type {
  MetricAttributes,
  MetricCounter,
  MetricHistogram,
  PaymentsMeter,
} from './core/observe/metrics.js';
export type {
  PaymentsTracer,
  SpanStartOptions,
  TraceAttributeValue,
  TraceSpan,
} from './core/observe/tracing.js';
export type { AccessTokenSource, PaymentsClientOptions, ReconcileMode } from './core/options/options.js';
export type { ClientOverrides } from './core/options/overrides.js';
export type { IntentBegin, IntentRecord, IntentStore, RefundSighting } from './core/stores/intent-store.js';
export { MemoryIntentStore } from './core/stores/memory-intent-store.js';
export type { RateLimitLease, RateLimitStore } from './core/stores/rate-limit-store.js';
export { MemoryRateLimitStore } from './core/stores/rate-limit-store.js';
export type { BucketLimit, RateLimit } from './core/stores/token-bucket.js';
export type { StoredToken, TokenStore } from './core/stores/token-store.js';
export { MemoryTokenStore } from './core/stores/token-store.js';
export type {
  Reconciliation,
  RequestOptions,
  RequestSpec,
  ResponseMeta,
  RetryMode,
} from './core/types.js';
export type { ConfirmReturnOptions, HostedCheckoutReturn } from './hosted-checkout.js';
export { confirmHostedCheckoutReturn } from './hosted-checkout.js';
export type { RecoveredIntent, RecoverOptions } from './intents/recover.js';
export type { AwaitResultOptions, PollingClient, PollProgress } from './polling.js';
export { awaitPaymentResult, awaitRefundResult } from './polling.js';
// The resource classes are values too: a class's declaration is a value in the built types
// whatever the export says (scripts/check-package-types.mjs holds types and run time equal), so
// `client.orders instanceof Orders` holds.
export { LaunchTokens } from './resources/launch-tokens.js';
export { Locations } from './resources/locations.js';
export { Orders } from './resources/orders.js';
export { Payments } from './resources/payments.js';
export { Refunds } from './resources/refunds.js';
export type { JsonDocument } from './resources/specs.js';
export { Specs } from './resources/specs.js';
export { WebhookEndpoints } from './resources/webhook-endpoints.js';
export type { ErrorCode, Open, Scope } from './schemas/common.js';
export { DEFAULT_SCOPES, ERROR_CODES, SCOPES } from './schemas/common.js';
export { REFUND_EVENT_KINDS } from './schemas/events.js';
export type { ErrorBody } from './schemas/fields.js';
export type {
  LaunchExchangeParams,
  LaunchSession,
  LaunchToken,
  LaunchTokenCreateParams,
} from './schemas/launch-tokens.js';
export { DEFAULT_ROLE_SLUG } from './schemas/launch-tokens.js';
export type { Level3, Level3LineItem } from './schemas/level3.js';
export type {
  Address,
  Location,
  LocationListParams,
  LocationPage,
  LocationSummary,
} from './schemas/locations.js';
export type { JsonValue } from './schemas/metadata.js';
export type {
  Order,
  OrderCreated,
  OrderCreateParams,
  OrderPayment,
  OrderStatus,
  OrderWithCheckout,
} from './schemas/orders.js';
export { ORDER_STATUSES } from './schemas/orders.js';
export type { Payment, PaymentCreateParams, PaymentStatus, VoidResult } from './schemas/payments.js';
export { PAYMENT_STATUSES } from './schemas/payments.js';
export type { Refund, RefundCreateParams, RefundReason, RefundStatus } from './schemas/refunds.js';
export { REFUND_REASONS, REFUND_STATUSES } from './schemas/refunds.js';
export type {
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointCreateParams,
} from './schemas/webhook-endpoints.js';
export { VERSION } from './version.js';
// Every type of the webhooks entry (event types, dedupe store, signature header), and its functions.
export type * from './webhooks/index.js';
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
} from './webhooks/index.js';
