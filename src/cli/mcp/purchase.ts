// What a write call of the MCP server is about to move (a charge or a refund), as the agent rules
// (guard.ts) weigh it, and the rules' settings from the flags.
import type { McpArgs } from './args.js';
import type { LedgerKind } from './ledger/ledger.js';

/** The rules' settings, as the flags gave them (McpArgs: `duplicateWindowMs` 0 is no guard). */
export type Rules = Pick<
  McpArgs,
  | 'budgetCents'
  | 'refundBudgetCents'
  | 'budgetWindowMs'
  | 'budgetWindow'
  | 'confirmAboveCents'
  | 'duplicateWindowMs'
  | 'duplicateWindow'
>;

/** What a call of charge or refund_payment is about to move. */
export interface Purchase {
  kind: LedgerKind;
  tool: string;
  key: string;
  amount: number;
  fp: string[];
  /** Shown to the person: the location, the order (id or external reference). */
  location?: string;
  order?: string;
  reference?: string;
  payment?: string;
}

/** A person's answer, through MCP elicitation: `unavailable` when the client cannot elicit. */
export type Answer = 'accept' | 'decline' | 'unavailable';
/** Asks the person (the server's elicitation of this very call). */
export type Ask = (message: string) => Promise<Answer>;

/** The purchase a write call would make, or undefined for a tool the rules do not cover. */
export function purchaseOf(tool: string, args: Record<string, unknown>): Purchase | undefined {
  const key = args.idempotency_key as string;
  if (tool === 'charge') {
    const order = args.order as
      | { location_id: string; total_cents: number; external_reference?: string }
      | undefined;
    if (order) {
      const reference = order.external_reference ?? '';
      return {
        kind: 'charge',
        tool,
        key,
        amount: (args.amount_cents as number | undefined) ?? order.total_cents,
        fp: [`content:${order.location_id}|${order.total_cents}|${reference}`],
        location: order.location_id,
        ...(order.external_reference === undefined ? {} : { reference: order.external_reference }),
      };
    }
    const orderId = args.order_id as string;
    return {
      kind: 'charge',
      tool,
      key,
      amount: args.amount_cents as number,
      fp: [`order:${orderId}`],
      order: orderId,
    };
  }
  if (tool === 'refund_payment') {
    return {
      kind: 'refund',
      tool,
      key,
      amount: args.amount_cents as number,
      fp: [],
      order: args.order_id as string,
      payment: args.payment_id as string,
    };
  }
  return undefined;
}
