// The rules of api.md 24 around the charge and refund_payment tools, once the call is admitted (the
// read-only switch, the arguments, --max-amount-cents): the rolling budgets and the duplicate guard
// (one atomic check-and-reserve in the agent ledger, shared by every server on the store), then the
// person's confirmation above --confirm-above-cents, all before anything is sent. After the call, the
// reservation learns its payment (or refund), and gives its amount back when nothing was charged:
// the payment or refund seen declined, failed, voided, ..., or the key whose outcome was unknown
// found not landed by the service's records (the recover tool, or the key's own intent record).
import type { PaymentsClient } from '../../index.js';
import { APIError, CallError, IdempotencyConflictError, RequestValidationError } from '../../index.js';
import { formatCents } from '../../internal/format.js';
import { Refusal } from './errors.js';
import {
  type AgentLedger,
  type Entry,
  givesBack,
  type LedgerKind,
  type ReserveAnswer,
  type Sighting,
} from './ledger/ledger.js';
import type { Ask, Purchase, Rules } from './purchase.js';
import { sightingsIn } from './sightings.js';
import { confirmQuestion, confirmRefusal, duplicateQuestion, duplicateRefusal } from './words.js';

/** Kept this long, whatever the flags of the servers sharing the store: the longest window and a day. */
export const RETAIN_MS = 31 * 24 * 3_600_000;

/** How many payments (or refunds) still pending a budget check reads again at most (one request each). */
const REREAD_LIMIT = 20;

/** A reservation taken for one call: told how the call ended. */
export interface Hold {
  /** The call answered: the ids and the status go into the ledger. */
  sent(out: unknown): Promise<void>;
  /**
   * The call failed: a failure that sent nothing gives the amount back. Resolves to the entry given
   * back on the key's intent record (an earlier call's reservation), if any.
   */
  failed(error: unknown): Promise<Entry[]>;
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
    if (!answer.ok && answer.reason === 'budget') {
      // Payments (refunds) that were pending may have been declined (failed) since: read them, then
      // check again.
      if (await this.reread(p.kind, signal)) answer = await this.reserve(p);
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
    return this.hold(p, created, known);
  }

  /**
   * What the output of `tool` shows: payments (charge, get_payment, await_payment_result,
   * void_payment, get_order) and refunds with their status, and the verdicts of recover on keys.
   * Resolves to the entries this output gave back (each once, whichever server sees it first).
   */
  async observe(tool: string, out: unknown): Promise<Entry[]> {
    const given: Entry[] = [];
    for (const seen of sightingsIn(out, tool === 'recover')) {
      const entry = await this.ledger.observe(seen);
      if (entry) given.push(entry);
    }
    return given;
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

  /**
   * Reads the payments (or refunds) of `kind` last seen pending, or not seen yet, within the window;
   * whether one of them gave its amount back.
   */
  private async reread(kind: LedgerKind, signal?: AbortSignal): Promise<boolean> {
    const pending = await this.ledger.pending(this.now() - this.rules.budgetWindowMs);
    let back = false;
    for (const e of pending.filter((x) => x.kind === kind && x.order !== undefined).slice(0, REREAD_LIMIT)) {
      try {
        const order = e.order as string;
        const payment = e.payment as string;
        const seen: Sighting =
          kind === 'charge'
            ? {
                kind,
                by: 'payment',
                id: payment,
                status: (await this.client.payments.get(order, payment, { signal })).status,
              }
            : {
                kind,
                by: 'refund',
                id: e.refund as string,
                status: (await this.client.refunds.get(order, payment, e.refund as string, { signal }))
                  .status,
              };
        back = (await this.ledger.observe(seen)) !== undefined || back;
      } catch {
        // Unread: it keeps counting, which is the safe side.
      }
    }
    return back;
  }

  private hold(p: Purchase, created: boolean, known: boolean): Hold {
    const ledger = this.ledger;
    const store = this.client.intentStore;
    return {
      async sent(out) {
        const o = out as {
          payment?: { payment_id?: string; order_id?: string; status?: string };
          refund_id?: string;
          payment_id?: string;
          order_id?: string;
          status?: string;
        };
        // A refund keeps its order and payment too, so that it can be read again (refunds.get).
        const seen = p.kind === 'charge' ? (o.payment ?? {}) : o;
        const status = seen.status;
        // The call's own result decides whether its amount counts, unless the key's payment (or
        // refund) was known before it (then nothing was sent, and its status as the ledger last saw
        // it stands). A retry of a key whose outcome was unknown may have sent while another server
        // gave its amount back on a `not_landed` verdict: its result holds the amount again.
        const released =
          status === undefined ? undefined : givesBack(p.kind, status) ? true : known ? undefined : false;
        await ledger.update(p.kind, p.key, {
          ...(seen.order_id ? { order: seen.order_id } : {}),
          ...(seen.payment_id ? { payment: seen.payment_id } : {}),
          ...(p.kind === 'refund' && o.refund_id ? { refund: o.refund_id } : {}),
          ...(status ? { status } : {}),
          ...(released === undefined ? {} : { released }),
        });
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
        if (known) return [];
        if (unknown) {
          // It may have sent: it holds the amount again, should a verdict have given it back meanwhile.
          if (!created) await ledger.update(p.kind, p.key, { released: false });
          return [];
        }
        if (created && nothing) {
          await ledger.update(p.kind, p.key, { released: true });
          return [];
        }
        // A retry (or a failure the error alone cannot place): the key's intent record says whether
        // anything under it landed. `not_landed` is the SDK's proof (the service refused the send,
        // or its records show the earlier send did not land), given back as recover's verdict is.
        const record = await store.get(p.key).catch(() => undefined);
        if (record?.kind !== (p.kind === 'charge' ? 'payment' : 'refund') || record.state !== 'not_landed') {
          return [];
        }
        const given = await ledger.observe({ kind: p.kind, by: 'key', id: p.key, status: 'not_landed' });
        return given ? [given] : [];
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
        `Do not split or shrink this ${p.kind === 'charge' ? 'purchase' : 'refund'} to fit. Tell the person: ${formatCents(answer.left)} is left of the budget now; a declined, failed or voided payment (a failed refund) gives its amount back, so does a call whose outcome was unknown once recover finds it did not land, and the window rolls on. A larger budget needs a person to restart the server with a higher ${flag}.`,
      );
    }
    return duplicateRefusal(p, answer.entry, this.rules, 'unavailable');
  }
}
