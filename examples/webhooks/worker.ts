// A webhook receiver as a Cloudflare Worker (module syntax). It runs with or without the
// `nodejs_compat` flag: with it, deliveries are verified with node:crypto; without it, on Web Crypto.
// Bundle with wrangler (or esbuild: --bundle --format=esm), then `wrangler secret put PAYMENTS_WEBHOOK_SECRET`.
// typecheck-only: needs workerd (Cloudflare Workers); the repository's receiver tests run it there (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { createWebhookHandler, type WebhookEvent, type WebhookHandler } from 'partner-payments/webhooks';

/** The Worker's bindings. */
export interface Env {
  PAYMENTS_WEBHOOK_SECRET: string;
  /** The previous secret, during a rotation. */
  PAYMENTS_WEBHOOK_SECRET_PREVIOUS?: string;
  /** Where events go: a service binding to your backend (a Queue producer's `send(event)` works the same way). */
  EVENTS: { fetch(input: string, init: RequestInit): Promise<Response> };
}

/** The path the endpoint is registered with. */
const WEBHOOK_PATH = '/webhooks/payments';

/** One handler per set of bindings (in practice, one per isolate). */
const handlers = new WeakMap<Env, WebhookHandler>();

/** Hands an event to the backend; throws when it was not accepted, so the delivery is answered 500 and retried. */
async function handOff(env: Env, event: WebhookEvent): Promise<void> {
  const response = await env.EVENTS.fetch('https://events.internal/payment-events', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
  if (!response.ok) throw new Error(`the backend refused ${event.event_id}: ${response.status}`);
}

function handlerFor(env: Env): WebhookHandler {
  let handler = handlers.get(env);
  if (!handler) {
    handler = createWebhookHandler({
      secret: [env.PAYMENTS_WEBHOOK_SECRET, env.PAYMENTS_WEBHOOK_SECRET_PREVIOUS],
      // The default in-memory de-duplication is per isolate: for a guarantee across isolates, pass a
      // DedupeStore on D1 (INSERT ... ON CONFLICT DO NOTHING) or a Durable Object.
      on: {
        'payment.approved': (event) => handOff(env, event),
        'payment.refunded': (event) => handOff(env, event),
        'payment.voided': (event) => handOff(env, event),
        'payment.reversal_failed': (event) => handOff(env, event),
      },
      onUnknown: (event) => handOff(env, event),
    });
    handlers.set(env, handler);
  }
  return handler;
}

export default {
  fetch(request: Request, env: Env): Promise<Response> | Response {
    if (new URL(request.url).pathname !== WEBHOOK_PATH) return new Response('not found', { status: 404 });
    return handlerFor(env).fetch(request);
  },
};
