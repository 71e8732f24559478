/**
 * Shared set-up of the fault tests and the soak test: the fault server, the dispatcher that plays
 * the refused connection, and clients wired to both that record what they emit.
 */
import { PaymentsClient } from '../../src/index.js';
import { type FaultServer, startFaultServer } from './fault-server.js';
import { faultDispatcher } from './refused-dispatcher.js';

export interface FaultHarness {
  server: FaultServer;
  /** A client with client credentials against the fault server, counting what it emits. */
  client(options: { timeoutMs: number; maxRetries?: number }): RecordingClient;
  close(): Promise<void>;
}

export interface RecordingClient {
  client: PaymentsClient;
  /** Attempts sent to the API (the `request` events of `/pos/v1` paths). */
  attempts(): number;
  /** Tokens minted (the `token` events with `action: 'minted'`). */
  mints(): number;
}

export async function startHarness(): Promise<FaultHarness> {
  const server = await startFaultServer();
  const refused = await faultDispatcher();
  return {
    server,
    client({ timeoutMs, maxRetries = 2 }) {
      const client = new PaymentsClient({
        clientId: 'fault-client',
        clientSecret: 'fault-client-secret',
        baseUrl: server.url,
        authUrl: server.url,
        scopes: ['payments:create', 'payments:read', 'payments:refund'],
        timeoutMs,
        maxRetries,
        dispatcher: refused.dispatcher,
      });
      let attempts = 0;
      let mints = 0;
      client.on('request', (event) => {
        if (event.path.startsWith('/pos/v1')) attempts++;
      });
      client.on('token', (event) => {
        if (event.action === 'minted') mints++;
      });
      return { client, attempts: () => attempts, mints: () => mints };
    },
    async close() {
      await server.close();
      await refused.close();
    },
  };
}
