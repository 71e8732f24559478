// A webhook receiver on Express 5. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/express.ts
import express, { type Express } from 'express';
import { verifyWebhook } from 'partner-payments/webhooks';
import { deliveryHandler, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * An Express app that verifies, de-duplicates and acknowledges deliveries on `POST /webhooks/payments`.
 *
 * The classic mistake is `app.use(express.json())` before this route: `req.body` is then an object,
 * and serialising it again does not give back the bytes the service signed. `express.raw()` on this
 * route keeps `req.body` a Buffer of the exact bytes; other routes can keep their JSON parser.
 */
export function createExpressReceiver(options: ReceiverOptions): Express {
  const handle = deliveryHandler(options);
  const app = express();
  app.post(WEBHOOK_PATH, express.raw({ type: 'application/json' }), async (req, res) => {
    const result = await handle((secret) =>
      verifyWebhook(req.body, req.headers['x-service-signature'], secret),
    );
    res.status(result.status).json(result.body);
  });
  // The rest of the application may parse JSON as usual.
  app.use(express.json());
  return app;
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await new Promise<void>((resolve) => createExpressReceiver(options).listen(port, host, () => resolve()));
});
