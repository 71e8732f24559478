// The bin's default command: runs the mock on a loopback HTTP server until SIGINT/SIGTERM, printing
// its URLs, credentials and fixture ids; CliError for the failures it explains in one line.
import { createMockService, type MockServer } from '../../testing/index.js';
import type { ServeArgs } from './args.js';
import { forwardWebhooks } from './forward.js';

/** A failure the bin explains in one line (no stack), exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** Turns the listen errors people meet into one actionable sentence. */
export function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new CliError(
      `port ${port} on ${host} is already in use: stop the other process, or pick another port with --port N (--port 0 picks a free one)`,
    );
  }
  if (code === 'EACCES') return new CliError(`not allowed to listen on port ${port}: pick a port above 1023`);
  if (code === 'EADDRNOTAVAIL') return new CliError(`${host} is not an address of this machine`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs the mock until SIGINT/SIGTERM, printing what a partner needs to call it. */
export async function serve(args: ServeArgs): Promise<void> {
  const write = (line: string) => process.stdout.write(`${line}\n`);
  // The bin serves people and demos: its clock follows real time, so tokens and payments expire on their own.
  const mock = createMockService({
    autoProcess: args.autoProcess,
    clock: { realTime: true },
    rateLimits: args.rateLimit !== 'off',
    credentialsTier: args.rateLimit === 'off' ? 'high' : args.rateLimit,
    maxOrders: args.maxOrders,
    specs: args.specs,
  });
  let server: MockServer;
  try {
    server = await mock.listen({ port: args.port, host: args.host });
  } catch (error) {
    mock.close();
    throw listenError(error, args.host, args.port);
  }
  const partner = mock.fixtures.partners[0]!;
  let forward: ReturnType<typeof forwardWebhooks> | null = null;
  if (args.forwardTo) forward = forwardWebhooks(mock, partner.partnerId, args.forwardTo, write);
  // The settings as PAYMENTS_* lines a partner pastes into a .env file (or, each after `export`, a
  // shell): every value is the mock's own (fixed mock credentials, a mock signing secret).
  const env = [
    `PAYMENTS_BASE_URL=${server.baseUrl}`,
    `PAYMENTS_AUTH_URL=${server.authUrl}`,
    `PAYMENTS_CLIENT_ID=${mock.credentials.clientId}`,
    `PAYMENTS_CLIENT_SECRET=${mock.credentials.clientSecret}`,
    `PAYMENTS_LOCATION_ID=${partner.locations.payments}`,
    ...(forward ? [`PAYMENTS_WEBHOOK_SECRET=${forward.signingSecret}`] : []),
  ];
  const lines = [
    'Partner Payments mock is running. Its settings, for a .env file (mock credentials, not real secrets):',
    ...env,
    '',
    `  rate limit:    ${rateLimitLine(args.rateLimit)}`,
    `  partner id:    ${partner.partnerId}`,
    `  location (payments enabled): ${partner.locations.payments}`,
    `  location (no payments):      ${partner.locations.noPayments}`,
    `  location (inactive):         ${partner.locations.inactive}`,
    `  dashboard:     ${server.baseUrl}/_mock/`,
    `  control API:   ${server.baseUrl}/_mock/v1 (described by ${server.baseUrl}/_mock/v1/openapi.json)`,
    `  fixtures:      ${server.baseUrl}/_mock/v1/fixtures (every partner, client and location, mock credentials included)`,
    `  max orders:    ${args.maxOrders.toLocaleString('en-US')} (the oldest goes first)${args.specs ? '' : '; spec documents off (--no-specs)'}`,
    `  demo mode: ${args.autoProcess ? 'on (approve after 1.5 s, amounts ending in 13 decline)' : 'off'}`,
  ];
  if (args.forwardTo) {
    lines.push(`  forwarding webhooks to: ${args.forwardTo} (signed with PAYMENTS_WEBHOOK_SECRET above)`);
  }
  lines.push('Press Ctrl+C to stop.');
  write(lines.join('\n'));
  const stop = async (signal: string) => {
    write(`\n${signal} received, shutting down.`);
    forward?.stop();
    mock.close();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

const TIERS = { low: 'burst 10, 5/s', standard: 'burst 50, 20/s', high: 'burst 200, 100/s' } as const;

/** What the banner says about rate limits. */
function rateLimitLine(value: ServeArgs['rateLimit']): string {
  if (value === 'off') return 'off for every client (--rate-limit off)';
  return `${value} tier for this client (${TIERS[value]}); --rate-limit off lifts it`;
}
