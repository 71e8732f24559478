// The `partner-payments/webhooks` entry: verification, signing for tests, de-duplication and the event
// types. Re-exports only; nothing here loads an HTTP client, so a webhook handler imports little.
export type { WebhookVerificationReason } from '../core/errors.js';
export { PaymentsError, WebhookVerificationError } from '../core/errors.js';
export type {
  EventKind,
  EventResource,
  KnownEventKind,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
} from '../schemas/events.js';
export { EVENT_KINDS } from '../schemas/events.js';
export type {
  DedupeOutcome,
  DedupeStore,
  Deduplicator,
  DeduplicatorOptions,
  MemoryDedupeStoreOptions,
} from './dedupe.js';
export { createDeduplicator, DEFAULT_DEDUPE_TTL_MS, MemoryDedupeStore } from './dedupe.js';
export type { WebhookRawBody } from './raw-body.js';
export type { SignedWebhookPayload } from './sign.js';
export { signWebhookPayload, webhookSignatureHeader } from './sign.js';
export type { SignatureHeaderValue, WebhookSecret } from './signature.js';
export { SIGNATURE_HEADER } from './signature.js';
export type { WebhookRequestLike } from './verify.js';
export { verifyWebhook, verifyWebhookRequest } from './verify.js';
