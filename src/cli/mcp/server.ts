// The MCP server of `partner-payments mcp`: tools/list from the tools' zod schemas (as JSON Schema,
// zod 4's own conversion) and tools/call through the safety rules (read-only unless --allow-writes,
// the amount cap, both before anything is sent), with every failure a tool result (`isError`, the
// code and the fix) and every output scrubbed of secrets. The low-level request handlers are used,
// not McpServer.registerTool, so that an argument error carries the code and fix like any other.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { validate } from '../../core/call/validate.js';
import type { PaymentsClient } from '../../index.js';
import { RequestValidationError, VERSION } from '../../index.js';
import type { SecretRegistry } from '../../internal/redact.js';
import { type AuditLog, auditFields, type GivenBack } from './audit.js';
import { failureOf, Refusal, type ToolFailure } from './errors.js';
import type { Guard } from './guard.js';
import type { Entry } from './ledger/ledger.js';
import { type Answer, purchaseOf } from './purchase.js';
import type { KnownOrders, Tool } from './tools/define.js';
import { TOOLS } from './tools/list.js';
import { READ_TOOLS } from './tools/reads.js';
import { WRITE_TOOLS } from './tools/writes.js';

/** The tools, in the order tools/list shows them: that of ./tools/list.ts. */
export function allTools(): Tool[] {
  const defined = new Map([...READ_TOOLS, ...WRITE_TOOLS].map((t) => [t.name, t]));
  return TOOLS.map(({ name }) => {
    const tool = defined.get(name);
    if (!tool) {
      throw new Error(`the tool ${name} of tools/list.ts has no definition in reads.ts or writes.ts`);
    }
    return tool;
  });
}

/** The server's safety settings. */
export interface Safety {
  allowWrites: boolean;
  maxAmountCents: number | undefined;
}

/** What every MCP session of one process shares: the client, its intent store, the known orders. */
export interface Shared {
  client: PaymentsClient;
  secrets: SecretRegistry;
  safety: Safety;
  known: KnownOrders;
  /** Resolves once the intent store's writes under way are done (stores.ts trackWrites). */
  written?: () => Promise<void>;
  /** The budgets, the duplicate guard and the confirmation (docs/agents.md), over the agent ledger. */
  guard?: Guard;
  /** `--audit-log`: a line per write call, before its answer. */
  audit?: AuditLog;
  /** How long the person has to answer a confirmation (default {@link CONFIRM_WAIT_MS}). */
  confirmWaitMs?: number;
}

/** How long the person has to answer a confirmation before it counts as not given. */
const CONFIRM_WAIT_MS = 120_000;

/** Fields whose values are secrets: dropped from every output before the text scrub. */
const SECRET_FIELDS = new Set([
  'hosted_checkout_url',
  'launch_token',
  'launch_url',
  'access_token',
  'client_secret',
  'signing_secret',
  'secret',
]);

/** `value` without secret fields, then with every registered secret and credential pattern redacted. */
export function scrub(value: unknown, secrets: SecretRegistry): unknown {
  const text = JSON.stringify(value, (key, v) => (SECRET_FIELDS.has(key) ? undefined : v));
  return text === undefined ? undefined : JSON.parse(secrets.redact(text));
}

const toJson = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as McpTool['inputSchema'];

/** tools/list's entries. */
export function toolList(tools: Tool[]): McpTool[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.annotations.title,
    description: t.write ? `${t.description} (Needs a server started with --allow-writes.)` : t.description,
    inputSchema: toJson(t.input, 'input'),
    outputSchema: toJson(t.output, 'output') as McpTool['outputSchema'],
    annotations: t.annotations,
  }));
}

/** A new MCP server (one per stdio process, one per HTTP request) over the shared client. */
export function createServer(shared: Shared): McpServer {
  const tools = allTools();
  const byName = new Map<string, Tool>(tools.map((t) => [t.name, t]));
  const listed = toolList(tools);
  const mcp = new McpServer(
    { name: 'partner-payments', version: VERSION },
    {
      instructions:
        'Payments tools. Reads are safe. charge and refund_payment take an idempotency_key, which names the purchase (or refund): choose one per intended charge or refund and reuse it, with the same arguments, on every retry of that operation; the same key never charges or refunds twice, and a new key is a new purchase. On outcome_unknown, call again with the same key. A refusal (budget_exceeded, possible_duplicate, not_confirmed, confirmation_unavailable) means nothing was sent: tell the person; never change the request to get past it.',
    },
  );
  const server = mcp.server;
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  /** Asks the person through MCP elicitation, within this call; `unavailable` when the client cannot. */
  const ask = async (message: string, signal?: AbortSignal): Promise<Answer> => {
    if (!server.getClientCapabilities()?.elicitation) return 'unavailable';
    try {
      const result = await server.elicitInput(
        {
          mode: 'form',
          // The person sees what the agent sent (a key, a reference): never a secret of the server's.
          message: shared.secrets.redact(message),
          requestedSchema: {
            type: 'object',
            properties: {
              confirm: {
                type: 'boolean',
                title: 'Confirm',
                description: 'Yes: do it, once. No: nothing is sent.',
              },
            },
            required: ['confirm'],
          },
        },
        { timeout: shared.confirmWaitMs ?? CONFIRM_WAIT_MS, ...(signal ? { signal } : {}) },
      );
      return result.action === 'accept' && result.content?.confirm === true ? 'accept' : 'decline';
    } catch (error) {
      // A client that said nothing of form elicitation, or an answer that never came (unanswered).
      return /does not support/i.test(String((error as Error)?.message)) ? 'unavailable' : 'decline';
    }
  };
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    const raw = request.params.arguments ?? {};
    let args: unknown = raw;
    let out: unknown;
    let given: Entry[] = [];
    try {
      if (!tool) {
        throw new Refusal(
          'unknown_tool',
          `There is no tool ${request.params.name}.`,
          `Call tools/list; the tools are ${tools.map((t) => t.name).join(', ')}.`,
        );
      }
      args = admit(tool, raw, shared.safety);
      const purchase = tool.write ? purchaseOf(tool.name, args as Record<string, unknown>) : undefined;
      const hold =
        purchase && shared.guard
          ? await shared.guard.before(purchase, (message) => ask(message, extra.signal), extra.signal)
          : undefined;
      try {
        out = await tool.run({ client: shared.client, known: shared.known, signal: extra.signal }, args);
      } catch (error) {
        // The ledger not taking it keeps the reservation counting (the safe side): the error stands.
        given = (await hold?.failed(error).catch(() => undefined)) ?? [];
        throw error;
      }
      // Money may have moved: the answer goes back even when the ledger cannot take the ids (the
      // reservation then keeps counting, the safe side).
      await hold
        ?.sent(out)
        .catch((error: unknown) => warn(shared, 'the agent ledger could not record the call', error));
      // A payment seen declined, failed or voided, a refund seen failed, and a key recover found not
      // landed give their amounts back to the budgets.
      given = (await shared.guard?.observe(tool.name, out).catch(() => undefined)) ?? [];
      // The payment or refund is recorded as landed before the agent hears of it: a server killed
      // right after this answer still returns it for the key (trackWrites).
      await shared.written?.();
      const structured = scrub(out, shared.secrets) as Record<string, unknown>;
      if (tool.write) await audited(shared, tool.name, args, out, 'sent', null, given);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      const failure = scrub(failureOf(error), shared.secrets) as ToolFailure;
      if (tool?.write) {
        // A refusal of this server or a request the client's checks refused: nothing was sent.
        const nothingSent = error instanceof Refusal || error instanceof RequestValidationError;
        const outcome = nothingSent ? 'refused' : failure.outcome_unknown ? 'unknown' : 'failed';
        await audited(shared, tool.name, args, out, outcome, failure.error, given);
      }
      return failed(failure);
    }
  });
  return mcp;
}

/** The arguments, parsed, once the safety rules allow the call; otherwise a {@link Refusal}. */
function admit(tool: Tool, raw: unknown, safety: Safety): unknown {
  if (tool.write && !safety.allowWrites) {
    throw new Refusal(
      'read_only',
      `${tool.name} changes payments, and this server is read-only; nothing was sent.`,
      'A person must restart the server with --allow-writes (in the MCP client configuration, add it to the args of partner-payments mcp) for write tools to run.',
    );
  }
  const args = validate(tool.input, raw, `arguments of ${tool.name}`);
  const cap = safety.maxAmountCents;
  if (cap !== undefined) {
    // The order a charge creates is checked too: a small payment must not bring a large order.
    const total = tool.orderTotal?.(args);
    const amount = tool.amount?.(args);
    const over =
      total !== undefined && total > cap
        ? `the order of ${total} cents that ${tool.name} would create`
        : amount !== undefined && amount > cap
          ? `${tool.name} of ${amount} cents`
          : undefined;
    if (over) {
      throw new Refusal(
        'amount_over_limit',
        `${over.charAt(0).toUpperCase()}${over.slice(1)} is over this server's limit of ${cap} cents (--max-amount-cents ${cap}); nothing was sent.`,
        `Ask a person: an amount or order above ${cap} cents needs a server started with a higher --max-amount-cents. Do not split the purchase to get under it.`,
      );
    }
  }
  return args;
}

/** Appends the call's audit line; a log that cannot be written is said on stderr, never to the agent. */
async function audited(
  shared: Shared,
  tool: string,
  args: unknown,
  out: unknown,
  outcome: 'sent' | 'refused' | 'failed' | 'unknown',
  code: string | null,
  given: Entry[] = [],
): Promise<void> {
  if (!shared.audit) return;
  const givenBack: GivenBack[] = given.map((e) => ({
    kind: e.kind,
    idempotency_key: e.key,
    amount_cents: e.amount,
    status: e.status ?? '',
  }));
  const line = {
    time: new Date().toISOString(),
    tool,
    outcome,
    code,
    ...auditFields(args, out),
    ...(givenBack.length > 0 ? { given_back: givenBack } : {}),
  };
  await shared.audit
    .append(line)
    .catch((error: unknown) => warn(shared, 'the audit log could not be written', error));
}

function warn(shared: Shared, what: string, error: unknown): void {
  process.stderr.write(`partner-payments mcp: ${what}: ${shared.secrets.redact(String(error))}\n`);
}

function failed(failure: ToolFailure): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(failure) }], isError: true };
}
