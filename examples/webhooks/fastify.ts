// A webhook receiver on Fastify 5. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/fastify.ts
// typecheck-only: needs Fastify, a partner's framework; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import Fastify, { type FastifyInstance } from 'fastify';
import { paymentsWebhooks, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * A Fastify app receiving deliveries on `POST /webhooks/payments`.
 *
 * Fastify parses JSON bodies by default. Inside this plugin (its own encapsulated context, so the
 * rest of the app keeps the default parsers) every content type is read as a Buffer instead, which
 * the handler takes from `request.body`. `reply.hijack()` hands the response to the handler.
 */
export function createFastifyReceiver(options: ReceiverOptions): FastifyInstance {
  const webhooks = paymentsWebhooks(options);
  const app = Fastify();
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(WEBHOOK_PATH, async (request, reply) => {
      reply.hijack();
      await webhooks.node(request, reply.raw);
    });
  });
  return app;
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await createFastifyReceiver(options).listen({ port, host });
});
