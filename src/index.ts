// The package's main entry: re-exports only.
export { PaymentsClient } from './client.js';
export type { APIResponse } from './core/api-promise.js';
export { APIPromise } from './core/api-promise.js';
export * from './core/errors.js';
export type {
  EndEvent,
  PaymentsClientEvents,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  RetryReason,
  TokenEvent,
} from './core/events.js';
export type { Logger, LogLevel } from './core/logger.js';
export type { Call, CallResult, CallRetry, Middleware } from './core/middleware.js';
export type { AccessTokenSource, PaymentsClientOptions } from './core/options.js';
export type { ClientOverrides } from './core/overrides.js';
export type { Page } from './core/pagination.js';
export { PagePromise } from './core/pagination.js';
export type { PaymentsTracer, TraceAttributeValue, TraceSpan } from './core/tracing.js';
export type { Reconciliation, RequestOptions, RequestSpec, RetryMode } from './core/types.js';
export type { ConfirmReturnOptions, HostedCheckoutReturn } from './hosted-checkout.js';
export { confirmHostedCheckoutReturn } from './hosted-checkout.js';
export type { AwaitResultOptions, PollingClient, PollProgress } from './polling.js';
export { awaitPaymentResult, awaitRefundResult } from './polling.js';
export type { JsonDocument } from './resources/specs.js';
export type { ErrorBody, ErrorCode, Open, Scope } from './schemas/common.js';
export { DEFAULT_SCOPES, ERROR_CODES, SCOPES } from './schemas/common.js';
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
  verifyWebhook,
  verifyWebhookAsync,
  verifyWebhookRequest,
  webhookSignatureHeader,
} from './webhooks/index.js';
