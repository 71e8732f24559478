/** Starts each example receiver on a free loopback port, registers it with the mock, and stops it. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressReceiver } from '../../examples/webhooks/express.js';
import { createFastifyReceiver } from '../../examples/webhooks/fastify.js';
import { createHonoReceiver } from '../../examples/webhooks/hono.js';
import { jobs } from '../../examples/webhooks/next/lib/jobs.js';
import { createNodeHttpReceiver } from '../../examples/webhooks/node-http.js';
import { serveFetchHandler } from '../../examples/webhooks/serve-fetch.js';
import { type ReceiverOptions, WEBHOOK_PATH } from '../../examples/webhooks/shared.js';
import type { WebhookEvent } from '../../src/webhooks/index.js';
import { startWorker } from './worker-harness.js';

/** What a receiver is started with: where its events go, and how it learns its signing secret. */
export interface ReceiverSetup {
  onEvent(event: WebhookEvent): Promise<void>;
  /** Registers the receiver's URL with the mock service and returns the endpoint's signing secret. */
  register(url: string): string;
}

/** A receiver listening on 127.0.0.1. */
export interface RunningReceiver {
  url: string;
  close(): Promise<void>;
}

async function listening(
  server: Server,
  setup: ReceiverSetup,
  secret: { value: string },
): Promise<RunningReceiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${WEBHOOK_PATH}`;
  secret.value = setup.register(url);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Options of the recipes that take them: the secret is known once the URL is registered. */
function optionsOf(setup: ReceiverSetup): [ReceiverOptions, { value: string }] {
  const secret = { value: '' };
  return [{ secret: () => secret.value, onEvent: setup.onEvent }, secret];
}

export const RECEIVERS: [string, (setup: ReceiverSetup) => Promise<RunningReceiver>][] = [
  [
    'node:http',
    (setup) => {
      const [options, secret] = optionsOf(setup);
      return listening(createNodeHttpReceiver(options), setup, secret);
    },
  ],
  [
    'Express',
    (setup) => {
      const [options, secret] = optionsOf(setup);
      return listening(createServer(createExpressReceiver(options)), setup, secret);
    },
  ],
  [
    'Fastify',
    async (setup) => {
      const [options, secret] = optionsOf(setup);
      const app = createFastifyReceiver(options);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${WEBHOOK_PATH}`;
      secret.value = setup.register(url);
      return { url, close: () => app.close() };
    },
  ],
  [
    'Hono',
    async (setup) => {
      const [options, secret] = optionsOf(setup);
      const served = await serveFetchHandler(createHonoReceiver(options).fetch);
      secret.value = setup.register(`${served.url}${WEBHOOK_PATH}`);
      return { url: `${served.url}${WEBHOOK_PATH}`, close: served.close };
    },
  ],
  [
    'Next.js App Router route (app/api/webhooks/route.ts)',
    async (setup) => {
      // The route module as Next.js loads it: its exported POST is called with a Web Request.
      const route = await import('../../examples/webhooks/next/app/api/webhooks/route.js');
      jobs.send = (_name, event) => setup.onEvent(event);
      const served = await serveFetchHandler(route.POST);
      const url = `${served.url}/api/webhooks`;
      process.env.PAYMENTS_WEBHOOK_SECRET = setup.register(url);
      return {
        url,
        close: async () => {
          delete process.env.PAYMENTS_WEBHOOK_SECRET;
          await served.close();
        },
      };
    },
  ],
  ['Cloudflare Worker (workerd, no nodejs_compat)', (setup) => startWorker(setup, { nodejsCompat: false })],
  ['Cloudflare Worker (workerd, nodejs_compat)', (setup) => startWorker(setup, { nodejsCompat: true })],
];
