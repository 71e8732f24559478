/** Starts each example receiver on a free loopback port, the same way for all four. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExpressReceiver } from '../../examples/webhooks/express.js';
import { createFastifyReceiver } from '../../examples/webhooks/fastify.js';
import { createFetchReceiver } from '../../examples/webhooks/fetch-handler.js';
import { createNodeHttpReceiver } from '../../examples/webhooks/node-http.js';
import { serveFetchHandler } from '../../examples/webhooks/serve-fetch.js';
import type { ReceiverOptions } from '../../examples/webhooks/shared.js';

/** A receiver listening on 127.0.0.1. */
export interface RunningReceiver {
  /** `http://127.0.0.1:<port>/webhooks/payments`. */
  url: string;
  close(): Promise<void>;
}

async function listening(server: Server): Promise<RunningReceiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/payments`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const RECEIVERS: [string, (options: ReceiverOptions) => Promise<RunningReceiver>][] = [
  ['node:http', (options) => listening(createNodeHttpReceiver(options))],
  ['Express', (options) => listening(createServer(createExpressReceiver(options)))],
  [
    'Fastify',
    async (options) => {
      const app = createFastifyReceiver(options);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/webhooks/payments`, close: () => app.close() };
    },
  ],
  [
    'fetch handler (Next.js route style)',
    async (options) => {
      const served = await serveFetchHandler(createFetchReceiver(options));
      return { url: `${served.url}/webhooks/payments`, close: served.close };
    },
  ],
];
