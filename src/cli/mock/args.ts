// The mock bin's command line: its usage text and the options tables of `serve` and `trigger`,
// read by the bins' one parser (../shared/args.ts), which throws the UsageError of a bad argument.
import { isLoopbackHost } from '../../internal/loopback.js';
import { EVENT_KINDS, type KnownEventKind } from '../../schemas/events.js';
import { HELP_OPTION, parseFlags, parseUrlFlag, UsageError } from '../shared/args.js';

/** The usage text of `partner-payments-mock`, printed by `--help` and after a usage error. */
export const MOCK_USAGE = `Usage:
  partner-payments-mock [--port 4010] [--host 127.0.0.1] [--no-auto] [--forward-to URL]
                        [--rate-limit off|low|standard|high] [--max-orders 100000] [--no-specs]
  partner-payments-mock trigger <event_kind> [--mock http://127.0.0.1:4010]

Runs the Partner Payments Service mock on a loopback HTTP server, with its dashboard at /_mock/
and its control API at /_mock/v1 (every fixture and credential: GET /_mock/v1/fixtures).
  --port        port to listen on (default 4010; 0 picks a free one)
  --host        loopback address (default 127.0.0.1)
  --no-auto     do not approve, settle and refund on their own (demo mode is on by default)
  --forward-to  a loopback URL (http allowed) to deliver the printed client's webhook events to;
                prints the endpoint's signing secret and one line per delivery attempt
  --rate-limit  the printed client's rate tier (default high: burst 200, 100/s); off lifts rate
                limiting for every client (load tests)
  --max-orders  the most orders kept (default 100000); past it the oldest goes, with its payments,
                refunds and webhook deliveries
  --no-specs    the well-known OpenAPI and AsyncAPI documents answer 404 spec_not_available

trigger makes a running mock produce one event (creating the order, payment or refund it needs)
and prints its event id. Event kinds: ${EVENT_KINDS.join(', ')}.
  --mock        the running mock's base URL (default http://127.0.0.1:4010)
`;

/** A loopback URL for webhook deliveries; anything else is refused, as the mock only calls this machine. */
export function parseLoopbackUrl(value: string, flag: string): string {
  const url = parseUrlFlag(value, flag);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname)) {
    throw new UsageError(`${flag} must be an http(s) URL on this machine (127.0.0.1, ::1 or localhost)`);
  }
  return url.href;
}

/** The values of `--rate-limit`: a tier for the printed client, or `off` for no limit at all. */
export const RATE_LIMIT_VALUES = ['off', 'low', 'standard', 'high'] as const;
export type RateLimitArg = (typeof RATE_LIMIT_VALUES)[number];

export interface ServeArgs {
  command: 'serve';
  port: number;
  host: string;
  autoProcess: boolean;
  forwardTo: string | null;
  rateLimit: RateLimitArg;
  maxOrders: number;
  specs: boolean;
  help: boolean;
}

export interface TriggerArgs {
  command: 'trigger';
  eventKind: KnownEventKind;
  mockUrl: string;
  help: boolean;
}

/** Parses the mock bin's arguments (`serve` unless the first is `trigger`); a bad value throws {@link UsageError}. */
export function parseMockArgs(argv: string[]): ServeArgs | TriggerArgs {
  return argv[0] === 'trigger' ? parseTrigger(argv.slice(1)) : parseServe(argv);
}

function parseServe(argv: string[]): ServeArgs {
  const { values } = parseFlags({
    args: argv,
    options: {
      ...HELP_OPTION,
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'no-auto': { type: 'boolean', default: false },
      'forward-to': { type: 'string' },
      'rate-limit': { type: 'string', default: 'high' },
      'max-orders': { type: 'string', default: '100000' },
      'no-specs': { type: 'boolean', default: false },
    },
  });
  const port = Number(values.port);
  const rateLimit = values['rate-limit'];
  if (!(RATE_LIMIT_VALUES as readonly string[]).includes(rateLimit)) {
    throw new UsageError(`--rate-limit must be one of ${RATE_LIMIT_VALUES.join(', ')}, got ${rateLimit}`);
  }
  const maxOrders = Number(values['max-orders'].replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(values['max-orders']) || !Number.isSafeInteger(maxOrders) || maxOrders < 1) {
    throw new UsageError(`--max-orders must be a whole number >= 1, got ${values['max-orders']}`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new UsageError(`--port must be 0-65535, got ${values.port}`);
  }
  if (values.host !== '127.0.0.1' && values.host !== '::1' && values.host !== 'localhost') {
    throw new UsageError('--host must be a loopback address (127.0.0.1, ::1 or localhost)');
  }
  const forward = values['forward-to'];
  return {
    command: 'serve',
    port,
    host: values.host,
    autoProcess: !values['no-auto'],
    forwardTo: forward === undefined ? null : parseLoopbackUrl(forward, '--forward-to'),
    rateLimit: rateLimit as RateLimitArg,
    maxOrders,
    specs: !values['no-specs'],
    help: values.help,
  };
}

function parseTrigger(argv: string[]): TriggerArgs {
  const { values, positionals } = parseFlags({
    args: argv,
    allowPositionals: true,
    options: {
      ...HELP_OPTION,
      mock: { type: 'string', default: 'http://127.0.0.1:4010' },
    },
  });
  if (values.help) return { command: 'trigger', eventKind: 'payment.approved', mockUrl: '', help: true };
  const [kind, ...rest] = positionals;
  if (!kind) throw new UsageError('trigger needs an event kind');
  if (rest.length > 0) throw new UsageError(`trigger takes one event kind, got ${positionals.join(' ')}`);
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`unknown event kind ${kind}; one of ${EVENT_KINDS.join(', ')}`);
  }
  const mockUrl = parseLoopbackUrl(values.mock, '--mock').replace(/\/+$/, '');
  return { command: 'trigger', eventKind: kind as KnownEventKind, mockUrl, help: false };
}
