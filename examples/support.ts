// Shared set-up of the examples: a client for the real service when PAYMENTS_BASE_URL is set,
// otherwise the embedded mock on loopback (demo mode: the processor answers on its own).
// typecheck-only: the set-up every example imports (they run; this module runs through them).
import { fileURLToPath } from 'node:url';
import { PaymentsClient, SCOPES } from 'partner-payments';
import { createMockService, type MockServer, type MockService } from 'partner-payments/testing';

export interface ExampleContext {
  client: PaymentsClient;
  /** A location that accepts payments. */
  locationId: string;
  /** How often the examples poll: the service recommends 3 s; the mock answers faster. */
  pollIntervalMs: number;
  /** Present when running against the embedded mock. */
  mock?: MockService;
  server?: MockServer;
  log: (line: string) => void;
}

/** Connects to the service named by the environment, or starts the embedded mock. */
export async function startExample(
  log: (line: string) => void = console.log,
): Promise<ExampleContext & { close(): Promise<void> }> {
  if (process.env.PAYMENTS_BASE_URL) {
    const locationId = process.env.PAYMENTS_LOCATION_ID;
    if (!locationId) throw new Error('set PAYMENTS_LOCATION_ID to a location of yours that accepts payments');
    return { client: new PaymentsClient(), locationId, pollIntervalMs: 3_000, log, close: async () => {} };
  }
  const mock = createMockService({
    autoProcess: { approveAfterMs: 200, settleAfterMs: 1_000, refundAfterMs: 200 },
    // Demo outcomes run on the mock clock: let it follow real time, as the bin does.
    clock: { realTime: true },
    rateLimits: false,
  });
  const server = await mock.listen();
  const client = new PaymentsClient({ ...mock.clientOptions(server.url), scopes: [...SCOPES] });
  const locationId = mock.fixtures.partners[0]!.locations.payments;
  log(`(embedded mock service on ${server.url})`);
  return { client, locationId, pollIntervalMs: 250, mock, server, log, close: () => server.close() };
}

/** Runs `main` when the file is executed directly (`npx tsx examples/<name>.ts`). */
export function runIfMain(moduleUrl: string, main: (ctx: ExampleContext) => Promise<unknown>): void {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  startExample()
    .then(async (ctx) => {
      try {
        await main(ctx);
      } finally {
        await ctx.close();
      }
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}

/** Formats integer cents as dollars for output. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
