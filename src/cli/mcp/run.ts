// `partner-payments mcp`, once its arguments are parsed: the SDK's client (with the intent store of
// --intent-store, else file stores under --state-dir or its per-user default, so that a key outlives
// the process either way), then the MCP server on stdio, or on
// Streamable HTTP at 127.0.0.1 with --http. Loaded by the bin only for this command (a dynamic
// import), since it imports the optional peer @modelcontextprotocol/sdk.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ConfigurationError, type IntentStore, PaymentsClient, type Scope } from '../../index.js';
import { SecretRegistry } from '../../internal/redact.js';
import type { Io } from '../shared/io.js';
import type { McpArgs } from './args.js';
import { type AuditLog, openAuditLog } from './audit.js';
import { Guard } from './guard.js';
import { serveHttp } from './http.js';
import { createServer, type Shared } from './server.js';
import { openStateDir } from './state.js';
import { type OpenedStore, openIntentStore, StoreError, type TrackedStore, trackWrites } from './stores.js';
import { KnownOrders } from './tools/define.js';

/** Runs the server until the MCP client disconnects (stdio) or a signal stops it (HTTP). */
export async function runMcp(args: McpArgs, io: Io): Promise<number> {
  const say = (text: string) => io.stderr(`partner-payments mcp: ${text}\n`);
  let store: OpenedStore | undefined;
  try {
    if (args.intentStore) store = await openIntentStore(args.intentStore);
    else if (args.stateDir) store = await openStateDir(args.stateDir);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    say(error.message);
    return 3;
  }
  const tracked: TrackedStore | undefined = store && trackWrites(store.intentStore);
  const secrets = new SecretRegistry();
  let client: PaymentsClient;
  try {
    client = makeClient(args, tracked?.intentStore);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    say(secrets.redact(error.message));
    await store?.close();
    return 2;
  }
  secrets.add(args.connection.clientSecret.value);
  let audit: AuditLog | undefined;
  if (args.auditLog !== undefined) {
    try {
      audit = await openAuditLog(args.auditLog, secrets);
    } catch (error) {
      say(
        `cannot append to the audit log ${args.auditLog}: ${secrets.redact(String(error))}. Give --audit-log a file this user can write.`,
      );
      await store?.close();
      return 3;
    }
  }
  const guard =
    store &&
    new Guard(
      store.ledger,
      {
        budgetCents: args.budgetCents,
        refundBudgetCents: args.refundBudgetCents,
        budgetWindowMs: args.budgetWindowMs,
        budgetWindow: args.budgetWindow,
        confirmAboveCents: args.confirmAboveCents,
        duplicateWindowMs: args.duplicateWindowMs,
        duplicateWindow: args.duplicateWindow,
      },
      client,
    );
  const shared: Shared = {
    client,
    secrets,
    safety: { allowWrites: args.allowWrites, maxAmountCents: args.maxAmountCents },
    known: new KnownOrders(),
    ...(tracked ? { written: tracked.written } : {}),
    ...(guard ? { guard } : {}),
    ...(audit ? { audit } : {}),
  };
  const budget =
    args.budgetCents === undefined ? '' : `, a budget of ${args.budgetCents} cents per ${args.budgetWindow}`;
  const mode = `${args.allowWrites ? 'writes allowed' : 'read-only'}${args.maxAmountCents === undefined ? '' : `, at most ${args.maxAmountCents} cents`}${budget}, intents ${args.intentStore ? `in ${args.intentStore.protocol}//${args.intentStore.hostname}` : args.stateDir ? `in ${args.stateDir}` : 'in memory'}`;
  try {
    if (args.httpPort === undefined) {
      await serveStdio(shared);
      return 0;
    }
    const server = await serveHttp(shared, args.httpPort, (e) =>
      say(`request failed: ${secrets.redact(String(e))}`),
    );
    const { port } = server.address() as { port: number };
    say(`serving http://127.0.0.1:${port}/mcp (${mode}); Ctrl+C stops it`);
    await untilSignal();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return 0;
  } finally {
    await audit?.close().catch(() => undefined);
    await store?.close();
  }
}

function makeClient(args: McpArgs, intentStore: IntentStore | undefined): PaymentsClient {
  const c = args.connection;
  return new PaymentsClient({
    clientId: c.clientId.value as string,
    clientSecret: c.clientSecret.value as string,
    baseUrl: c.baseUrl.value as string,
    ...(c.authUrl.value ? { authUrl: c.authUrl.value } : {}),
    scopes: args.scopes as Scope[],
    timeoutMs: args.timeoutMs,
    deadlineMs: args.deadlineMs,
    settleMs: args.settleMs,
    ...(intentStore ? { intentStore } : {}),
  });
}

/** Serves one MCP client on stdin/stdout until it closes its end. */
async function serveStdio(shared: Shared): Promise<void> {
  const mcp = createServer(shared);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await mcp.connect(transport);
  await closed;
  await mcp.close();
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
