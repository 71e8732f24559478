/**
 * Webhook verification, signing for tests, de-duplication and the event types; no HTTP client.
 * @module partner-payments/webhooks
 */
// The `partner-payments/webhooks` entry: the receiver, verification, signing for tests, de-duplication
// and the event types. Re-exports only. Nothing here loads zod, an HTTP client or node:crypto when
// imported (node:crypto is looked up on first use where it exists), so the entry runs on Cloudflare
// Workers without nodejs_compat and a webhook route imports little (test/webhooks/entry.test.ts).
export * from './base.js';
export type {
  CatchUpClient,
  CatchUpOptions,
  CatchUpOrder,
  CatchUpRefund,
  CatchUpResult,
} from './catch-up.js';
export { CATCH_UP_EVENT_PREFIX, isCatchUpEvent } from './transitions.js';
