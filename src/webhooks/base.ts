// What the `partner-payments/webhooks` entry shares with the main entry (which re-exports its types
// and functions): everything of the entry but catching up on lost webhooks, whose names stay in the
// webhooks entry (index.ts). Re-exports only.
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
export type { WebhookRequestLike } from './verify.js';
export { verifyWebhook, verifyWebhookAsync, verifyWebhookRequest } from './verify.js';
