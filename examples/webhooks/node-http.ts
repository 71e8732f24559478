// A webhook receiver on node:http, no framework. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/node-http.ts
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { verifyWebhook } from 'partner-payments/webhooks';
import { deliveryHandler, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/** The exact bytes of the request body: node:http hands them over in chunks. */
async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A node:http server that verifies, de-duplicates and acknowledges deliveries on `POST /webhooks/payments`.
 * Not listening yet: call `.listen(port, host)`.
 */
export function createNodeHttpReceiver(options: ReceiverOptions): Server {
  const handle = deliveryHandler(options);
  return createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== WEBHOOK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const rawBody = await readRawBody(req);
    const result = await handle((secret) =>
      verifyWebhook(rawBody, req.headers['x-service-signature'], secret),
    );
    res.writeHead(result.status, { 'content-type': 'application/json' }).end(JSON.stringify(result.body));
  });
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await new Promise<void>((resolve) => createNodeHttpReceiver(options).listen(port, host, resolve));
});
