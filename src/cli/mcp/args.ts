// The `partner-payments mcp` command line: its usage text and its options table (read by the bins'
// one parser, ../shared/args.ts). Nothing here imports @modelcontextprotocol/sdk, so `mcp --help`
// and a usage error need no optional peer installed.
import { parseFlags, parseUrlFlag, seconds, UsageError } from '../shared/args.js';
import { CONNECTION, type Connection, connectionOf, scopesOf } from '../shared/connection.js';
import { TOOLS } from './tools/list.js';

/** The write tools, as the usage text names them (`a, b and c`), in the order of tools/list. */
const writeTools = TOOLS.filter((t) => t.write).map((t) => t.name);
const WRITE_TOOLS_IN_WORDS = `${writeTools.slice(0, -1).join(', ')} and ${writeTools.at(-1)}`;

/** The usage text of `partner-payments mcp`. */
export const MCP_USAGE = `Usage:
  partner-payments mcp [--allow-writes] [--max-amount-cents N] [--http PORT] [--intent-store URL]

A Model Context Protocol server over the SDK's own client: tools for an AI agent to read locations,
orders and payments, and (with --allow-writes) to create orders, charge, void and refund, where a
retried charge or refund with its idempotency_key never happens twice. stdio by default (an MCP
client starts it); see docs/agents.md. It reads the variables the client reads, or these flags:
  --client-id         default PAYMENTS_CLIENT_ID
  --client-secret     default PAYMENTS_CLIENT_SECRET (never shown; prefer the variable)
  --base-url          default PAYMENTS_BASE_URL (the API root, without /pos/v1)
  --auth-url          default PAYMENTS_AUTH_URL, else the base URL
  --scopes            the scopes to ask for, comma-separated (default the SDK's:
                      payments:create,payments:read,locations:read; refund_payment needs
                      payments:refund too)
  --timeout           seconds to wait for one answer of the service (default 15)
  --deadline          seconds one tool call may take in all, retries and reconciliation included
                      (default 30); past it a charge says outcome_unknown with its key

Safety:
  --allow-writes      enable ${WRITE_TOOLS_IN_WORDS}
                      (without it they are listed but refuse: the server is read-only)
  --max-amount-cents  refuse an order, charge or refund above this many cents, before anything is sent

Transport and state:
  --http PORT         serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (loopback
                      only; a request with a foreign Host or Origin is refused with 403)
  --intent-store URL  keep idempotency keys in Redis (redis://, rediss://) or Postgres
                      (postgres://, postgresql://) instead of this process's memory, so that a key
                      survives a restart and is shared with other servers and clients
                      (needs the redis or pg package installed)

Needs @modelcontextprotocol/sdk installed beside partner-payments (an optional peer dependency).
Exit codes: 0 the client disconnected, 2 usage error, 3 could not start.
`;

/** What `partner-payments mcp` was started with. */
export interface McpArgs {
  command: 'mcp';
  connection: Connection;
  timeoutMs: number;
  deadlineMs: number;
  /** The scopes to ask for, with the `svc/` prefix. */
  scopes: string[];
  allowWrites: boolean;
  maxAmountCents: number | undefined;
  httpPort: number | undefined;
  intentStore: URL | undefined;
}

/** Parses the arguments after `mcp`; a bad value throws {@link UsageError}. */
export function parseMcpArgs(
  argv: string[],
  env: Record<string, string | undefined>,
): McpArgs | { command: 'help'; topic: 'mcp' } {
  const { values } = parseFlags({
    args: argv,
    options: {
      ...CONNECTION,
      scopes: { type: 'string' },
      deadline: { type: 'string' },
      'allow-writes': { type: 'boolean', default: false },
      'max-amount-cents': { type: 'string' },
      http: { type: 'string' },
      'intent-store': { type: 'string' },
    },
  });
  if (values.help) return { command: 'help', topic: 'mcp' };
  const connection = connectionOf(values, env);
  for (const s of [connection.clientId, connection.clientSecret, connection.baseUrl]) {
    if (!s.value) throw new UsageError(`${s.env} is not set (or pass ${s.flag}): the server needs it`);
  }
  const scopes = scopesOf(values.scopes);
  return {
    command: 'mcp',
    connection,
    timeoutMs: seconds(values.timeout, '--timeout', 15) * 1000,
    deadlineMs: seconds(values.deadline, '--deadline', 30) * 1000,
    scopes,
    allowWrites: values['allow-writes'],
    maxAmountCents: integer(values['max-amount-cents'], '--max-amount-cents', 1),
    httpPort: integer(values.http, '--http', 0, 65_535),
    intentStore: values['intent-store'] === undefined ? undefined : storeUrl(values['intent-store']),
  };
}

function integer(value: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max || value.trim() === '') {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got ${value}`);
  }
  return n;
}

const STORE_SCHEMES = new Set(['redis:', 'rediss:', 'postgres:', 'postgresql:']);

function storeUrl(value: string): URL {
  const url = parseUrlFlag(value, '--intent-store');
  if (!STORE_SCHEMES.has(url.protocol)) {
    throw new UsageError(
      `--intent-store must be a redis://, rediss://, postgres:// or postgresql:// URL, got ${url.protocol}//...`,
    );
  }
  return url;
}
