// A webhook receiver on Hono (any runtime Hono runs on). Run (served on node:http):
// PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/hono.ts
// typecheck-only: needs Hono, a partner's framework; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { Hono } from 'hono';
import { serveFetchHandler } from './serve-fetch.js';
import { paymentsWebhooks, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * A Hono app receiving deliveries on `POST /webhooks/payments`. The handler takes the raw fetch
 * `Request` (`c.req.raw`); do not read the body with `c.req.json()` first.
 */
export function createHonoReceiver(options: ReceiverOptions): Hono {
  const webhooks = paymentsWebhooks(options);
  const app = new Hono();
  app.post(WEBHOOK_PATH, (c) => webhooks.fetch(c.req.raw));
  return app;
}

runIfMain(import.meta.url, async (options, address) => {
  await serveFetchHandler(createHonoReceiver(options).fetch, address);
});
