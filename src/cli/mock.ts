import { parseArgs } from 'node:util';
import { createMockService } from '../testing/index.js';

const USAGE = `Usage: partner-payments-mock [--port 4010] [--host 127.0.0.1] [--no-auto]

Runs the Partner Payments Service mock on a loopback HTTP server.
  --port     port to listen on (default 4010; 0 picks a free one)
  --host     loopback address (default 127.0.0.1)
  --no-auto  do not approve, settle and refund on their own (demo mode is on by default)
`;

/** Parses the bin's arguments; a bad value throws with a message for the user. */
function parseCliArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'no-auto': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be 0-65535, got ${values.port}`);
  if (values.host !== '127.0.0.1' && values.host !== '::1' && values.host !== 'localhost') {
    throw new Error('--host must be a loopback address (127.0.0.1, ::1 or localhost)');
  }
  return { port, host: values.host, autoProcess: !values['no-auto'], help: values.help };
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  // The bin serves people and demos: its clock follows real time, so tokens and payments expire on their own.
  const mock = createMockService({ autoProcess: args.autoProcess, clock: { realTime: true } });
  const server = await mock.listen({ port: args.port, host: args.host });
  const partner = mock.fixtures.partners[0]!;
  const lines = [
    'Partner Payments mock is running.',
    `  base URL:      ${server.baseUrl}`,
    `  auth URL:      ${server.authUrl}`,
    `  client id:     ${mock.credentials.clientId}`,
    `  client secret: ${mock.credentials.clientSecret}   (a fixed mock credential, not a real secret)`,
    `  partner id:    ${partner.partnerId}`,
    `  location (payments enabled): ${partner.locations.payments}`,
    `  location (no payments):      ${partner.locations.noPayments}`,
    `  location (inactive):         ${partner.locations.inactive}`,
    `  demo mode: ${args.autoProcess ? 'on (approve after 1.5 s, amounts ending in 13 decline)' : 'off'}`,
    'Press Ctrl+C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async (signal: string) => {
    process.stdout.write(`\n${signal} received, shutting down.\n`);
    mock.close();
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

void main();
