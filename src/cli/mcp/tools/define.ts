// What one tool of `partner-payments mcp` is: its name, description, input and output schemas (zod,
// the SDK's own where one exists), MCP annotations, whether it writes (as ./list.ts says), the
// amount it would move (for --max-amount-cents), and what it runs. The server (../server.ts) lists
// and calls them in the order of ./list.ts.
import * as z from 'zod';
import type { PaymentsClient } from '../../../index.js';
import { type ToolName, writes } from './list.js';

/** The orders this server has seen (created, charged or read), newest last: what find_orders searches. */
export class KnownOrders {
  readonly #ids = new Set<string>();
  constructor(private readonly limit = 1_000) {}

  add(orderId: string): void {
    this.#ids.delete(orderId);
    this.#ids.add(orderId);
    if (this.#ids.size > this.limit) this.#ids.delete(this.#ids.values().next().value as string);
  }

  /** Newest first. */
  list(): string[] {
    return [...this.#ids].reverse();
  }
}

/** What a tool runs with. */
export interface ToolContext {
  client: PaymentsClient;
  known: KnownOrders;
  /** Per call: aborted when the MCP client cancels the request. */
  signal: AbortSignal | undefined;
}

/** MCP's tool annotations (hints a client shows or uses to ask for confirmation). */
export interface Annotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool. `I` and `O` are zod object schemas; `O` describes `structuredContent`. */
export interface Tool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** One of ./list.ts, which places the tool in tools/list. */
  name: ToolName;
  description: string;
  input: I;
  output: O;
  annotations: Annotations;
  /** Refused unless the server runs with --allow-writes (from ./list.ts, by the name). */
  write: boolean;
  /** The cents this call would order, charge or refund (checked against --max-amount-cents). */
  amount?: (args: z.output<I>) => number | undefined;
  /** The total of the order this call would create (checked against --max-amount-cents too). */
  orderTotal?: (args: z.output<I>) => number | undefined;
  run(ctx: ToolContext, args: z.output<I>): Promise<z.input<O>>;
}

/**
 * A tool, typed by its schemas (so that `run` and `amount` see the parsed arguments); whether it
 * writes is taken from ./list.ts, so that the list and the tool cannot disagree.
 */
export function tool<I extends z.ZodType, O extends z.ZodType>(def: Omit<Tool<I, O>, 'write'>): Tool {
  return { ...def, write: writes(def.name) } as unknown as Tool;
}

/** Annotations of a tool that only reads from the service. */
export function readOnly(title: string): Annotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
}

/** The key a retried write must carry: the same key never makes a second order, payment or refund. */
export const idempotencyKey = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(255, { error: 'must be at most 255 characters' })
  .describe(
    'Names this one intended operation. Choose it once (e.g. "invoice-1234-charge") and send the SAME key on every retry of this operation, even after a lost answer or an error: the same key returns the same result and never acts twice. A new operation needs a new key.',
  );
