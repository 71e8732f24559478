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
import { VERSION } from '../../index.js';
import type { SecretRegistry } from '../../internal/redact.js';
import { failureOf, Refusal, type ToolFailure } from './errors.js';
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
}

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
        'Payments tools. Reads are safe. charge and refund_payment take an idempotency_key: choose one per intended charge or refund and reuse it on every retry of that operation; the same key never charges or refunds twice. On outcome_unknown, call again with the same key.',
    },
  );
  const server = mcp.server;
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    try {
      if (!tool) {
        throw new Refusal(
          'unknown_tool',
          `There is no tool ${request.params.name}.`,
          `Call tools/list; the tools are ${tools.map((t) => t.name).join(', ')}.`,
        );
      }
      const args = admit(tool, request.params.arguments ?? {}, shared.safety);
      const out = await tool.run({ client: shared.client, known: shared.known, signal: extra.signal }, args);
      // The payment or refund is recorded as landed before the agent hears of it: a server killed
      // right after this answer still returns it for the key (trackWrites).
      await shared.written?.();
      const structured = scrub(out, shared.secrets) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (error) {
      return failed(scrub(failureOf(error), shared.secrets) as ToolFailure);
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
  const amount = tool.amount?.(args);
  const cap = safety.maxAmountCents;
  if (cap !== undefined && amount !== undefined && amount > cap) {
    throw new Refusal(
      'amount_over_limit',
      `${tool.name} of ${amount} cents is over this server's limit of ${cap} cents (--max-amount-cents ${cap}); nothing was sent.`,
      `Use at most ${cap} cents, or ask a person: a larger amount needs a server started with a higher --max-amount-cents.`,
    );
  }
  return args;
}

function failed(failure: ToolFailure): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(failure) }], isError: true };
}
