// A webhook receiver on Express 5. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/express.ts
// typecheck-only: needs Express, a partner's framework; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import express, { type Express } from 'express';
import { paymentsWebhooks, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * An Express app receiving deliveries on `POST /webhooks/payments`.
 *
 * The classic mistake is `app.use(express.json())` before this route: `req.body` is then an object,
 * and serialising it again does not give back the bytes the service signed (the handler answers 500
 * and tells `onError` how to fix it). `express.raw()` on this route keeps `req.body` a Buffer of the
 * exact bytes, whatever the content type; other routes keep their JSON parser.
 */
export function createExpressReceiver(options: ReceiverOptions): Express {
  const webhooks = paymentsWebhooks(options);
  const app = express();
  app.post(WEBHOOK_PATH, express.raw({ type: () => true, limit: '1mb' }), (req, res) =>
    webhooks.node(req, res),
  );
  // The rest of the application may parse JSON as usual.
  app.use(express.json());
  return app;
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await new Promise<void>((resolve) => createExpressReceiver(options).listen(port, host, () => resolve()));
});
