/**
 * Webhook verification, signing for tests, de-duplication and the event types; no HTTP client.
 * @module partner-payments/webhooks
 */
// The `partner-payments/webhooks` entry: the receiver, verification, signing for tests, de-duplication
// and the event types. Re-exports only. Nothing here loads zod, an HTTP client or node:crypto when
// imported (node:crypto is looked up on first use where it exists), so the entry runs on Cloudflare
// Workers without nodejs_compat and a webhook route imports little (test/webhooks/entry.test.ts).
export type { WebhookVerificationReason } from '../core/errors/api-errors.js';
export { PaymentsError, WebhookVerificationError } from '../core/errors/api-errors.js';
export type { DedupeStore, MemoryDedupeStoreOptions } from '../core/stores/dedupe-store.js';
export { DEFAULT_DEDUPE_TTL_MS, MemoryDedupeStore } from '../core/stores/dedupe-store.js';
export type { KnownEventKind } from '../schemas/event-envelope.js';
export { EVENT_KINDS } from '../schemas/event-envelope.js';
export type {
  EventKind,
  EventResource,
  RefundEventKind,
  RefundEventResource,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from '../schemas/events.js';
export type {
  CatchUpClient,
  CatchUpOptions,
  CatchUpOrder,
  CatchUpRefund,
  CatchUpResult,
} from './catch-up.js';
export type { DedupeOutcome, Deduplicator, DeduplicatorOptions } from './dedupe.js';
export { createDeduplicator } from './dedupe.js';
export type {
  WebhookErrorContext,
  WebhookEventHandlers,
  WebhookHandler,
  WebhookHandlerOptions,
} from './handler.js';
export { createWebhookHandler } from './handler.js';
export type { NodeWebhookRequest, NodeWebhookResponse } from './handler-io.js';
export type { VerifyWebhookOptions } from './parse.js';
export type { WebhookRawBody } from './raw-body.js';
export type { SignedWebhookPayload } from './sign.js';
export { signWebhookPayload, signWebhookPayloadAsync, webhookSignatureHeader } from './sign.js';
export type { SignatureHeaderValue, WebhookSecret } from './signature.js';
export { SIGNATURE_HEADER } from './signature.js';
export { CATCH_UP_EVENT_PREFIX, isCatchUpEvent } from './transitions.js';
export type { WebhookRequestLike } from './verify.js';
export { verifyWebhook, verifyWebhookAsync, verifyWebhookRequest } from './verify.js';
