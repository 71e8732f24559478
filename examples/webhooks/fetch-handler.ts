// A webhook receiver as a fetch handler: `(request: Request) => Promise<Response>`, the shape of a
// Next.js App Router route (app/api/webhooks/payments/route.ts: `export const POST = handler`), Hono
// (`app.post(path, (c) => handler(c.req.raw))`), Cloudflare Workers, Deno and Bun.
// Run (served on node:http): PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/fetch-handler.ts
import { verifyWebhookRequest } from 'partner-payments/webhooks';
import { serveFetchHandler } from './serve-fetch.js';
import { deliveryHandler, type ReceiverOptions, runIfMain } from './shared.js';

/**
 * A fetch handler that verifies, de-duplicates and acknowledges deliveries. `verifyWebhookRequest`
 * reads the raw body with `arrayBuffer()`; do not call `request.json()` before it (that consumes the body).
 */
export function createFetchReceiver(options: ReceiverOptions): (request: Request) => Promise<Response> {
  const handle = deliveryHandler(options);
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405 });
    const result = await handle((secret) => verifyWebhookRequest(request, secret));
    return Response.json(result.body, { status: result.status });
  };
}

runIfMain(import.meta.url, async (options, address) => {
  await serveFetchHandler(createFetchReceiver(options), address);
});
