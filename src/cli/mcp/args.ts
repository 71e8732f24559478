// The `partner-payments mcp` command line: its usage text and its options table (read by the bins'
// one parser, ../shared/args.ts). Nothing here imports @modelcontextprotocol/sdk, so `mcp --help`
// and a usage error need no optional peer installed.
import { homedir } from 'node:os';
import { parseFlags, parseUrlFlag, seconds, UsageError } from '../shared/args.js';
import { CONNECTION, type Connection, connectionOf, scopesOf } from '../shared/connection.js';
import { TOOLS } from './tools/list.js';

/** The write tools, as the usage text names them (`a, b and c`), in the order of tools/list. */
const writeTools = TOOLS.filter((t) => t.write).map((t) => t.name);
const WRITE_TOOLS_IN_WORDS = `${writeTools.slice(0, -1).join(', ')} and ${writeTools.at(-1)}`;

/** The usage text of `partner-payments mcp`. */
export const MCP_USAGE = `Usage:
  partner-payments mcp [--allow-writes] [--max-amount-cents N] [--http PORT]
                       [--budget-cents N [--budget-window 24h|7d|30d]] [--refund-budget-cents N]
                       [--confirm-above-cents N] [--duplicate-window 15m] [--audit-log FILE]
                       [--state-dir DIR | --intent-store URL]

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
  --settle            seconds after a send whose answer was lost before the service's records may
                      say it did not land (default 30, the client's settleMs); keep it above the
                      longest the service may take on a request; lower it only against a mock

Safety:
  --allow-writes      enable ${WRITE_TOOLS_IN_WORDS}
                      (without it they are listed but refuse: the server is read-only)
  --max-amount-cents  refuse an order, charge or refund above this many cents, before anything is sent
                      (a charge's new order counts by its total)
  --budget-cents N    the charges sent within the rolling --budget-window may not pass N cents: one
                      that would is refused (budget_exceeded, naming what is left) before anything is
                      sent; a payment that ends declined, failed or voided gives its amount back
  --budget-window W   24h, 7d or 30d (default 24h); also the window of --refund-budget-cents
  --refund-budget-cents N
                      the same for refund_payment
  --confirm-above-cents N
                      a charge or refund above N cents asks the person first (MCP elicitation:
                      amount, location, order, key); declined or unanswered: not_confirmed; a client
                      that cannot ask: confirmation_unavailable. Nothing is sent without a yes
  --duplicate-window D
                      a charge of the same order (location, total, external reference) that this
                      server charged within D under another key is refused (possible_duplicate,
                      naming that key) unless the person confirms it; 30s, 15m, 2h, 0 for none
                      (default 15m)
  --audit-log FILE    append one JSON line per write tool call (sent, refused or failed: time, tool,
                      key, amount, ids, outcome, code) before answering; never a secret
  The budgets and the duplicate guard are kept beside the keys (--state-dir or --intent-store),
  shared by every server on that store, and survive a restart.

Transport and state:
  --http PORT         serve Streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio (loopback
                      only; a request with a foreign Host or Origin is refused with 403)
  --state-dir DIR     keep idempotency keys in files under DIR (created with mode 0700), so that a
                      key survives a restart: the same key returns the same payment and refunds
                      once. Default: $XDG_STATE_HOME/partner-payments if XDG_STATE_HOME is set, else
                      ~/.local/state/partner-payments (macOS: ~/Library/Application Support/
                      partner-payments; Windows: %LOCALAPPDATA%\\partner-payments)
  --intent-store URL  keep them in Redis (redis://, rediss://) or Postgres (postgres://,
                      postgresql://) instead, shared with other servers and clients (needs the redis
                      or pg package installed); not with --state-dir

Needs @modelcontextprotocol/sdk installed beside partner-payments (an optional peer dependency).
Exit codes: 0 the client disconnected, 2 usage error, 3 could not start.
`;

/** What `partner-payments mcp` was started with. */
export interface McpArgs {
  command: 'mcp';
  connection: Connection;
  timeoutMs: number;
  deadlineMs: number;
  /** How long after a send whose answer was lost the service is taken to be done with it (`settleMs`). */
  settleMs: number;
  /** The scopes to ask for, with the `svc/` prefix. */
  scopes: string[];
  allowWrites: boolean;
  maxAmountCents: number | undefined;
  httpPort: number | undefined;
  /** `--intent-store`: Redis or Postgres. */
  intentStore: URL | undefined;
  /** The directory of the file stores: `--state-dir`, else the default; unset with `--intent-store`. */
  stateDir: string | undefined;
  budgetCents: number | undefined;
  refundBudgetCents: number | undefined;
  /** `--budget-window` in ms, and as given. */
  budgetWindowMs: number;
  budgetWindow: string;
  confirmAboveCents: number | undefined;
  /** `--duplicate-window` in ms (0: no guard), and as given. */
  duplicateWindowMs: number;
  duplicateWindow: string;
  auditLog: string | undefined;
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
      settle: { type: 'string' },
      'allow-writes': { type: 'boolean', default: false },
      'max-amount-cents': { type: 'string' },
      http: { type: 'string' },
      'intent-store': { type: 'string' },
      'state-dir': { type: 'string' },
      'budget-cents': { type: 'string' },
      'budget-window': { type: 'string' },
      'refund-budget-cents': { type: 'string' },
      'confirm-above-cents': { type: 'string' },
      'duplicate-window': { type: 'string' },
      'audit-log': { type: 'string' },
    },
  });
  if (values.help) return { command: 'help', topic: 'mcp' };
  if (values['state-dir'] !== undefined && values['intent-store'] !== undefined) {
    // Two stores would each hold half the keys: a key charged under one is unknown to the other.
    throw new UsageError('--state-dir and --intent-store cannot be used together: give one of them');
  }
  const connection = connectionOf(values, env);
  for (const s of [connection.clientId, connection.clientSecret, connection.baseUrl]) {
    if (!s.value) throw new UsageError(`${s.env} is not set (or pass ${s.flag}): the server needs it`);
  }
  const scopes = scopesOf(values.scopes);
  const budgetWindow = values['budget-window'] ?? '24h';
  if (!(budgetWindow in BUDGET_WINDOWS)) {
    throw new UsageError(`--budget-window must be 24h, 7d or 30d, got ${budgetWindow}`);
  }
  if (
    values['budget-window'] !== undefined &&
    values['budget-cents'] === undefined &&
    values['refund-budget-cents'] === undefined
  ) {
    throw new UsageError(
      '--budget-window needs --budget-cents or --refund-budget-cents: give the budget too',
    );
  }
  const duplicateWindow = values['duplicate-window'] ?? '15m';
  const auditLog = values['audit-log'];
  if (auditLog !== undefined && auditLog.trim() === '') {
    throw new UsageError('--audit-log must be a file, got an empty value');
  }
  return {
    command: 'mcp',
    connection,
    timeoutMs: seconds(values.timeout, '--timeout', 15) * 1000,
    deadlineMs: seconds(values.deadline, '--deadline', 30) * 1000,
    settleMs: seconds(values.settle, '--settle', 30) * 1000,
    scopes,
    allowWrites: values['allow-writes'],
    maxAmountCents: integer(values['max-amount-cents'], '--max-amount-cents', 1),
    httpPort: integer(values.http, '--http', 0, 65_535),
    intentStore: values['intent-store'] === undefined ? undefined : storeUrl(values['intent-store']),
    stateDir: values['intent-store'] === undefined ? stateDir(values['state-dir'], env) : undefined,
    budgetCents: integer(values['budget-cents'], '--budget-cents', 1),
    refundBudgetCents: integer(values['refund-budget-cents'], '--refund-budget-cents', 1),
    budgetWindowMs: BUDGET_WINDOWS[budgetWindow as keyof typeof BUDGET_WINDOWS],
    budgetWindow,
    confirmAboveCents: integer(values['confirm-above-cents'], '--confirm-above-cents', 0),
    duplicateWindowMs: duration(duplicateWindow, '--duplicate-window'),
    duplicateWindow,
    auditLog,
  };
}

const HOUR = 3_600_000;
/** The windows --budget-window takes. */
const BUDGET_WINDOWS = { '24h': 24 * HOUR, '7d': 7 * 24 * HOUR, '30d': 30 * 24 * HOUR } as const;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: HOUR, d: 24 * HOUR };

/** `30s`, `15m`, `2h`, `1d` or `0`, in ms; at most 30 days (what the ledger keeps). */
function duration(value: string, flag: string): number {
  const match = /^(\d{1,6})([smhd])?$/.exec(value.trim());
  const ms = match
    ? Number(match[1]) * (match[2] ? (UNITS[match[2]] as number) : match[1] === '0' ? 0 : Number.NaN)
    : Number.NaN;
  if (!Number.isFinite(ms) || ms > 30 * 24 * HOUR) {
    throw new UsageError(
      `${flag} must be a duration like 30s, 15m, 2h or 0 (none), at most 30d, got ${value}`,
    );
  }
  return ms;
}

function stateDir(value: string | undefined, env: Record<string, string | undefined>): string {
  if (value !== undefined) {
    if (value.trim() === '') throw new UsageError('--state-dir must be a directory, got an empty value');
    return value;
  }
  const home = env.HOME || env.USERPROFILE || safeHomedir();
  const dir = defaultStateDir(env, process.platform, home);
  if (!dir) throw new UsageError('no home directory to keep state in: give --state-dir DIR');
  return dir;
}

function safeHomedir(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined; // no passwd entry (a container's arbitrary uid)
  }
}

/**
 * Where the state lives without `--state-dir`: the platform's per-user place for what a program
 * keeps between runs. `XDG_STATE_HOME` (when absolute, as the XDG spec requires) wins on every
 * platform but Windows, since a user who set it asked for it; then `%LOCALAPPDATA%\partner-payments`
 * on Windows, `~/Library/Application Support/partner-payments` on macOS and
 * `~/.local/state/partner-payments` elsewhere. Undefined when there is no home to put it in.
 */
export function defaultStateDir(
  env: Record<string, string | undefined>,
  platform: string,
  home: string | undefined,
): string | undefined {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || (home ? `${home}\\AppData\\Local` : undefined);
    return local ? `${local}\\partner-payments` : undefined;
  }
  const xdg = env.XDG_STATE_HOME;
  if (xdg?.startsWith('/')) return `${xdg.replace(/\/+$/, '')}/partner-payments`;
  if (!home) return undefined;
  const base = home.replace(/\/+$/, '');
  return platform === 'darwin'
    ? `${base}/Library/Application Support/partner-payments`
    : `${base}/.local/state/partner-payments`;
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
