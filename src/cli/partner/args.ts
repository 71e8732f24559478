// The `partner-payments` bin's command line: the usage text and the options tables of `doctor` and
// `verify` (read by the bins' one parser, ../shared/args.ts, which throws the UsageError of a bad
// argument). The connection flags and settings they share with `mcp` are ../shared/connection.ts.
import { isLoopbackHost } from '../../internal/loopback.js';
import { parseFlags, parseUrlFlag, seconds, UsageError } from '../shared/args.js';
import {
  CONNECTION,
  type Connection,
  connectionOf,
  type Env,
  type Setting,
  scopesOf,
  setting,
} from '../shared/connection.js';

/** The usage text of `partner-payments`, printed by `help`, `--help` and after a usage error. */
export const PARTNER_USAGE = `Usage:
  partner-payments doctor [--scopes LIST] [--webhook-secret S] [--max-skew SECONDS] [--json]
  partner-payments verify [--read-only] [--webhooks URL] [--settle-wait SECONDS] [--json]
  partner-payments mcp [--allow-writes] [--max-amount-cents N] [--http PORT]   (mcp --help)

doctor checks a set-up in order (URLs, token endpoint, credentials, scopes, API and its version,
clock, webhook secret), one line each with the fix; exit code 0 only when every check passes.
verify runs a contract suite against an environment of the service (spec section per line); exit
code 0 only without deviations. mcp serves tools for AI agents (see mcp --help, docs/agents.md).
All read the variables the client reads, or these flags:
  --client-id       default PAYMENTS_CLIENT_ID (printed; the client id is not a secret)
  --client-secret   default PAYMENTS_CLIENT_SECRET (never printed; prefer the variable)
  --base-url        default PAYMENTS_BASE_URL (the API root, without /pos/v1)
  --auth-url        default PAYMENTS_AUTH_URL, else the base URL (tokens: {auth URL}/oauth2/token)
  --timeout         seconds to wait for one answer (default 15)
  --json            one JSON document on stdout instead of lines

doctor:
  --scopes          the scopes the client is meant to have, comma-separated
                    (default payments:create,payments:read,locations:read, the SDK's default)
  --webhook-secret  default PAYMENTS_WEBHOOK_SECRET: check the signing secret's form
  --max-skew        clock difference to the service that still passes, in seconds (default 5)

verify:
  --read-only       send only reads and token requests (no order, payment or anything else, and
                    no rate-limit burst): for production
  --location        the location to create test orders at (default: the first active location
                    with the payments feature)
  --settle-wait     wait up to this many seconds for a test payment to settle, then refund it
                    (default 0: the refund items are skipped)
  --webhooks        a loopback URL (http://127.0.0.1:PORT/PATH) to receive deliveries on; an
                    endpoint registered at the service must deliver there (see docs/cli.md)
  --webhook-secret  default PAYMENTS_WEBHOOK_SECRET: that endpoint's signing secret
  --webhook-wait    seconds to wait for a delivery (default 30)
  --no-rate-limit   skip the burst that provokes a 429

Exit codes: 0 passed, 1 a check failed or a deviation was found, 2 usage error, 3 verify could not
start (no token, no answer), 130 verify interrupted (after voiding what it charged). See docs/cli.md.
`;

interface Common {
  connection: Connection;
  json: boolean;
  timeoutMs: number;
}

export interface DoctorArgs extends Common {
  command: 'doctor';
  /** The scopes the client is meant to have, with the `svc/` prefix. */
  scopes: string[];
  webhookSecret: Setting;
  maxSkewMs: number;
}

export interface VerifyArgs extends Common {
  command: 'verify';
  readOnly: boolean;
  location: string | undefined;
  settleWaitMs: number;
  webhooks: string | undefined;
  webhookSecret: Setting;
  webhookWaitMs: number;
  rateLimit: boolean;
}

export type CliArgs =
  | DoctorArgs
  | VerifyArgs
  | { command: 'help'; topic: string | undefined }
  | { command: 'version' };

/** The flags every command of this bin takes: the connection's, and `--json` (which mcp has not). */
const COMMON = {
  ...CONNECTION,
  json: { type: 'boolean', default: false },
} as const;

/** Parses the `partner-payments` bin's arguments; a bad value throws {@link UsageError}. */
export function parsePartnerArgs(argv: string[], env: Env): CliArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    return { command: 'help', topic: rest[0] };
  }
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'doctor') return parseDoctor(rest, env);
  if (command === 'verify') return parseVerify(rest, env);
  throw new UsageError(`unknown command ${command}: use doctor, verify or mcp`);
}

function parseDoctor(argv: string[], env: Env): DoctorArgs | { command: 'help'; topic: string } {
  const { values } = parseFlags({
    args: argv,
    options: {
      ...COMMON,
      scopes: { type: 'string' },
      'webhook-secret': { type: 'string' },
      'max-skew': { type: 'string' },
    },
  });
  if (values.help) return { command: 'help', topic: 'doctor' };
  const scopes = scopesOf(values.scopes);
  return {
    command: 'doctor',
    connection: connectionOf(values, env),
    json: values.json,
    timeoutMs: seconds(values.timeout, '--timeout', 15) * 1000,
    scopes,
    webhookSecret: setting(values['webhook-secret'], env, '--webhook-secret', 'PAYMENTS_WEBHOOK_SECRET'),
    maxSkewMs: seconds(values['max-skew'], '--max-skew', 5) * 1000,
  };
}

function parseVerify(argv: string[], env: Env): VerifyArgs | { command: 'help'; topic: string } {
  const { values } = parseFlags({
    args: argv,
    options: {
      ...COMMON,
      'read-only': { type: 'boolean', default: false },
      location: { type: 'string' },
      'settle-wait': { type: 'string' },
      webhooks: { type: 'string' },
      'webhook-secret': { type: 'string' },
      'webhook-wait': { type: 'string' },
      'no-rate-limit': { type: 'boolean', default: false },
    },
  });
  if (values.help) return { command: 'help', topic: 'verify' };
  const webhookSecret = setting(values['webhook-secret'], env, '--webhook-secret', 'PAYMENTS_WEBHOOK_SECRET');
  const webhooks = values.webhooks === undefined ? undefined : loopbackUrl(values.webhooks);
  if (webhooks && !webhookSecret.value) {
    throw new UsageError(
      '--webhooks needs the signing secret of the endpoint that delivers there: set PAYMENTS_WEBHOOK_SECRET (or pass --webhook-secret)',
    );
  }
  if (values.location !== undefined && !UUID.test(values.location)) {
    throw new UsageError(`--location must be a location id (a UUID), got ${values.location}`);
  }
  return {
    command: 'verify',
    connection: connectionOf(values, env),
    json: values.json,
    timeoutMs: seconds(values.timeout, '--timeout', 15) * 1000,
    readOnly: values['read-only'],
    location: values.location,
    settleWaitMs: seconds(values['settle-wait'], '--settle-wait', 0) * 1000,
    webhooks,
    webhookSecret,
    webhookWaitMs: seconds(values['webhook-wait'], '--webhook-wait', 30) * 1000,
    rateLimit: !values['no-rate-limit'],
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `--webhooks` URL: http(s) on this machine, since verify listens there itself. */
function loopbackUrl(value: string): string {
  const url = parseUrlFlag(value, '--webhooks');
  if (url.protocol !== 'http:' || !isLoopbackHost(url.hostname) || url.port === '') {
    throw new UsageError(
      '--webhooks must be an http:// URL on this machine with a port (http://127.0.0.1:8123/webhooks): verify listens there',
    );
  }
  return url.href;
}
