// The rules of api.md 24 around the charge and refund_payment tools, once the call is admitted (the
// read-only switch, the arguments, --max-amount-cents): the rolling budgets and the duplicate guard
// (one atomic check-and-reserve in the agent ledger, shared by every server on the store), then the
// person's confirmation above --confirm-above-cents, all before anything is sent. After the call, the
// reservation learns its payment (or refund), and gives its amount back when nothing was charged.
import type { PaymentsClient } from '../../index.js';
import { APIError, CallError, IdempotencyConflictError, RequestValidationError } from '../../index.js';
import { formatCents } from '../../internal/format.js';
import type { McpArgs } from './args.js';
import { Refusal } from './errors.js';
import {
  type AgentLedger,
  type Entry,
  GIVES_BACK,
  type LedgerKind,
  type ReserveAnswer,
} from './ledger/ledger.js';

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

/** Kept this long, whatever the flags of the servers sharing the store: the longest window and a day. */
export const RETAIN_MS = 31 * 24 * 3_600_000;

/** How many payments still pending a budget check reads again at most (one request each). */
const REREAD_LIMIT = 20;

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

/** A reservation taken for one call: told how the call ended. */
export interface Hold {
  /** The call answered: the ids and the status go into the ledger. */
  sent(out: unknown): Promise<void>;
  /** The call failed: a failure that sent nothing gives the amount back. */
  failed(error: unknown): Promise<void>;
}

/** The rules over one ledger. */
export class Guard {
  constructor(
    readonly ledger: AgentLedger,
    readonly rules: Rules,
    private readonly client: PaymentsClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks and reserves, asks the person when the rules say so; a {@link Refusal} when it may not be sent. */
  async before(p: Purchase, ask: Ask, signal?: AbortSignal): Promise<Hold> {
    try {
      return await this.check(p, ask, signal);
    } catch (error) {
      if (error instanceof Refusal) throw error;
      // The ledger could not be read or written: without it no rule can hold, so nothing is sent.
      throw new Refusal(
        'ledger_unavailable',
        `This server could not check its budget and duplicate records (${this.ledger.where}): ${String(error instanceof Error ? error.message : error).replace(/\/\/[^@\s/]*@/g, '//[REDACTED]@')}. Nothing was sent.`,
        `Call again later with the same idempotency_key and arguments; if it persists, tell the person that the server's store (--state-dir or --intent-store) needs attention.`,
      );
    }
  }

  private async check(p: Purchase, ask: Ask, signal?: AbortSignal): Promise<Hold> {
    let answer = await this.reserve(p);
    if (!answer.ok && answer.reason === 'budget' && p.kind === 'charge') {
      // Payments that were pending may have been declined since: read them, then check again.
      if (await this.reread(signal)) answer = await this.reserve(p);
    }
    let confirmed = false;
    if (!answer.ok && answer.reason === 'duplicate') {
      const earlier = answer.entry;
      const said = await ask(duplicateQuestion(await this.shown(p, signal), earlier, this.rules));
      if (said !== 'accept') throw duplicateRefusal(p, earlier, this.rules, said);
      confirmed = true;
      answer = await this.reserve(p, earlier.key);
      if (!answer.ok && answer.reason === 'duplicate')
        throw duplicateRefusal(p, answer.entry, this.rules, 'none');
    }
    if (!answer.ok) throw this.refusal(p, answer);
    const created = !answer.existing;
    const cap = this.rules.confirmAboveCents;
    // A retry of a key whose payment (or refund) is known sends nothing: no question for it.
    const known = answer.existing && (answer.entry.payment ?? answer.entry.refund) !== undefined;
    if (!confirmed && cap !== undefined && p.amount > cap && !known) {
      const said = await ask(confirmQuestion(await this.shown(p, signal), cap));
      if (said !== 'accept') {
        if (created) await this.ledger.update(p.kind, p.key, { released: true });
        throw confirmRefusal(p, cap, said);
      }
    }
    return this.hold(p, created);
  }

  /** A payment seen by any tool (charge, get_payment, await_payment_result, void_payment, get_order). */
  async observe(out: unknown): Promise<void> {
    for (const { payment_id, status } of paymentsIn(out)) await this.ledger.observe(payment_id, status);
  }

  private reserve(p: Purchase, allowDuplicateOf?: string): Promise<ReserveAnswer> {
    const limit = p.kind === 'charge' ? this.rules.budgetCents : this.rules.refundBudgetCents;
    return this.ledger.reserve({
      kind: p.kind,
      key: p.key,
      amount: p.amount,
      fp: p.fp,
      now: this.now(),
      ...(limit === undefined ? {} : { budget: { limit, windowMs: this.rules.budgetWindowMs } }),
      duplicateWindowMs: p.kind === 'charge' ? this.rules.duplicateWindowMs : 0,
      ...(allowDuplicateOf === undefined ? {} : { allowDuplicateOf }),
      retainMs: RETAIN_MS,
    });
  }

  /**
   * The purchase as the person is shown it: a call on an existing order is given the order's
   * location and external reference (one read; without it, the order id alone).
   */
  private async shown(p: Purchase, signal?: AbortSignal): Promise<Purchase> {
    if (p.order === undefined || p.reference !== undefined) return p;
    try {
      const order = await this.client.orders.get(p.order, { signal });
      return {
        ...p,
        location: order.location_id,
        ...(order.external_reference ? { reference: order.external_reference } : {}),
      };
    } catch {
      return p;
    }
  }

  /** Reads the payments last seen pending within the window; whether one of them gave its amount back. */
  private async reread(signal?: AbortSignal): Promise<boolean> {
    const pending = await this.ledger.pending(this.now() - this.rules.budgetWindowMs);
    let back = false;
    for (const e of pending.slice(0, REREAD_LIMIT)) {
      try {
        const payment = await this.client.payments.get(e.order as string, e.payment as string, { signal });
        await this.ledger.observe(payment.payment_id, payment.status);
        back ||= GIVES_BACK.includes(payment.status);
      } catch {
        // Unread: it keeps counting, which is the safe side.
      }
    }
    return back;
  }

  private hold(p: Purchase, created: boolean): Hold {
    const ledger = this.ledger;
    return {
      async sent(out) {
        const o = out as {
          order?: { order_id?: string };
          payment?: { payment_id?: string; order_id?: string; status?: string };
          refund_id?: string;
          order_id?: string;
          status?: string;
        };
        if (p.kind === 'charge') {
          const payment = o.payment ?? {};
          await ledger.update(p.kind, p.key, {
            ...(payment.order_id ? { order: payment.order_id } : {}),
            ...(payment.payment_id ? { payment: payment.payment_id } : {}),
            ...(payment.status ? { status: payment.status } : {}),
            ...(payment.status && GIVES_BACK.includes(payment.status) ? { released: true } : {}),
          });
        } else {
          await ledger.update(p.kind, p.key, {
            ...(o.refund_id ? { refund: o.refund_id } : {}),
            ...(o.status ? { status: o.status } : {}),
            ...(o.status === 'failed' ? { released: true } : {}),
          });
        }
      },
      async failed(error) {
        // Only a failure that provably charged nothing gives the amount back: the service answered
        // with an error, or the client refused the call before sending it. Anything else (an
        // outcome the SDK could not tell, a cancelled call, a connection lost) may have moved money
        // and keeps counting until its payment is seen. And only when this call reserved it: a retry
        // leaves the first call's reservation alone.
        const unknown = error instanceof CallError && error.outcomeUnknown;
        const nothing =
          error instanceof APIError ||
          error instanceof RequestValidationError ||
          error instanceof IdempotencyConflictError;
        if (created && nothing && !unknown) await ledger.update(p.kind, p.key, { released: true });
      },
    };
  }

  private refusal(p: Purchase, answer: Exclude<ReserveAnswer, { ok: true }>): Refusal {
    if (answer.reason === 'conflict') {
      const e = answer.entry;
      return new Refusal(
        'idempotency_conflict',
        `The idempotency_key "${p.key}" names another ${p.tool === 'charge' ? 'purchase' : 'refund'} (${formatCents(e.amount)}${e.order ? ` on order ${e.order}` : ''}); this call asks ${formatCents(p.amount)}. Nothing was sent.`,
        'Call again with the arguments first used with this key to get that result back. If this is a different purchase, ask the person whether it is wanted before choosing a new key.',
      );
    }
    if (answer.reason === 'budget') {
      const flag = p.kind === 'charge' ? '--budget-cents' : '--refund-budget-cents';
      const limit = (p.kind === 'charge' ? this.rules.budgetCents : this.rules.refundBudgetCents) as number;
      const what = p.kind === 'charge' ? 'charges' : 'refunds';
      return new Refusal(
        'budget_exceeded',
        `${p.tool} of ${formatCents(p.amount)} would pass this server's budget for ${what}: ${formatCents(limit)} per ${this.rules.budgetWindow} (${flag} ${limit}), of which ${formatCents(answer.left)} is left. Nothing was sent.`,
        `Do not split or shrink this ${p.kind === 'charge' ? 'purchase' : 'refund'} to fit. Tell the person: ${formatCents(answer.left)} is left of the budget now; a declined, failed or voided payment gives its amount back, and the window rolls on. A larger budget needs a person to restart the server with a higher ${flag}.`,
      );
    }
    return duplicateRefusal(p, answer.entry, this.rules, 'unavailable');
  }
}

function where(p: Purchase): string {
  const parts = [
    `amount: ${formatCents(p.amount)}`,
    p.location ? `location: ${p.location}` : undefined,
    p.order ? `order: ${p.order}` : undefined,
    p.reference !== undefined ? `order reference: ${p.reference}` : undefined,
    p.payment ? `payment: ${p.payment}` : undefined,
    `idempotency key: ${p.key}`,
  ];
  return parts.filter(Boolean).join('; ');
}

function confirmQuestion(p: Purchase, cap: number): string {
  const verb = p.kind === 'charge' ? 'Charge' : 'Refund';
  return `An AI agent asks to ${verb.toLowerCase()} ${formatCents(p.amount)}, above the ${formatCents(cap)} that needs your confirmation (--confirm-above-cents). ${where(p)}. ${verb} this, once?`;
}

function duplicateQuestion(p: Purchase, earlier: Entry, rules: Rules): string {
  return `An AI agent asks to charge the same order as one charged ${ago(earlier)} (within ${rules.duplicateWindow}) under another key, "${earlier.key}"${earlier.payment ? ` (payment ${earlier.payment})` : ''}: it may be a retry that would charge twice. ${where(p)}. Is this a new, second purchase to charge?`;
}

function ago(e: Entry): string {
  const s = Math.max(0, Math.round((Date.now() - e.at) / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

function duplicateRefusal(p: Purchase, earlier: Entry, rules: Rules, said: Answer | 'none'): Refusal {
  const payment = earlier.payment
    ? `payment ${earlier.payment}${earlier.order ? ` on order ${earlier.order}` : ''}`
    : 'a payment whose outcome is not known yet';
  const person =
    said === 'decline'
      ? ' The person was asked and did not confirm a second purchase.'
      : said === 'unavailable'
        ? ' This client cannot ask the person (MCP elicitation), so only the earlier purchase stands.'
        : '';
  return new Refusal(
    'possible_duplicate',
    `This charge matches one this server made ${ago(earlier)} under the idempotency_key "${earlier.key}" (${payment}): the same ${p.order ? 'order' : 'location, total and external reference'} within ${rules.duplicateWindow} (--duplicate-window). Nothing was sent.${person}`,
    `If this is a retry of that purchase, call charge again with idempotency_key "${earlier.key}" and its first arguments (or get_payment${earlier.payment ? ` with payment ${earlier.payment}` : ''}): it returns that payment and never charges twice. Only the person can approve a second purchase, when the MCP client can ask them; do not change the request to get past this.`,
  );
}

function confirmRefusal(p: Purchase, cap: number, said: Answer): Refusal {
  if (said === 'unavailable') {
    return new Refusal(
      'confirmation_unavailable',
      `${p.tool} of ${formatCents(p.amount)} is above ${formatCents(cap)}, which this server must confirm with the person (--confirm-above-cents ${cap}), and this MCP client cannot ask them (it has no elicitation). Nothing was sent.`,
      'Tell the person: this needs an MCP client that supports elicitation, or a server started with a higher --confirm-above-cents. Do not split the amount to get under it.',
    );
  }
  return new Refusal(
    'not_confirmed',
    `${p.tool} of ${formatCents(p.amount)} was not confirmed by the person (declined, cancelled or unanswered). Nothing was sent.`,
    'Do not call it again unless the person asks for it; tell them it was not done.',
  );
}

/** Every `{ payment_id, status }` in a tool's output: a payment, a void, a charge, an order's payments. */
function paymentsIn(out: unknown): { payment_id: string; status: string }[] {
  const found: { payment_id: string; status: string }[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 3 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.payment_id === 'string' && typeof o.status === 'string' && o.refund_id === undefined) {
      found.push({ payment_id: o.payment_id, status: o.status });
    }
    for (const child of Object.values(o)) if (typeof child === 'object') visit(child, depth + 1);
  };
  visit(out, 0);
  return found;
}
