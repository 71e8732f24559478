// A webhook receiver on Fastify 5. Run: PAYMENTS_WEBHOOK_SECRET=... tsx examples/webhooks/fastify.ts
import Fastify, { type FastifyInstance } from 'fastify';
import { verifyWebhook } from 'partner-payments/webhooks';
import { deliveryHandler, type ReceiverOptions, runIfMain, WEBHOOK_PATH } from './shared.js';

/**
 * A Fastify app that verifies, de-duplicates and acknowledges deliveries on `POST /webhooks/payments`.
 *
 * Fastify parses JSON bodies by default. Inside this plugin (its own encapsulated context, so the
 * rest of the app keeps the default parser) `application/json` is read as a Buffer instead.
 */
export function createFastifyReceiver(options: ReceiverOptions): FastifyInstance {
  const handle = deliveryHandler(options);
  const app = Fastify();
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(WEBHOOK_PATH, async (req, reply) => {
      const result = await handle((secret) =>
        verifyWebhook(req.body as Buffer, req.headers['x-service-signature'], secret),
      );
      return reply.code(result.status).send(result.body);
    });
  });
  return app;
}

runIfMain(import.meta.url, async (options, { port, host }) => {
  await createFastifyReceiver(options).listen({ port, host });
});
