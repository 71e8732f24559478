// A webhook receiver on node:http, no framework. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/node-http.ts
// typecheck-only: a receiver that serves until stopped; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { createServer, type Server } from 'node:http';
import { paymentsWebhooks, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * A node:http server receiving deliveries on `POST /webhooks/payments`: the handler reads the body
 * from the request stream itself. Not listening yet: call `.listen(port, host)`.
 */
export function createNodeHttpReceiver(options: ReceiverOptions): Server {
  const webhooks = paymentsWebhooks(options);
  return createServer((req, res) => {
    if (req.url !== WEBHOOK_PATH) {
      res.writeHead(404).end();
      return;
    }
    void webhooks.node(req, res); // never rejects: every failure is an answer (and onError)
  });
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await new Promise<void>((resolve) => createNodeHttpReceiver(options).listen(port, host, resolve));
});
