// The agent ledger of `partner-payments mcp` (api.md 24): what the charge and refund_payment tools
// reserved, for the rolling budgets and the duplicate guard. Its own small contract, apart from the
// SDK's intent store: a reservation is taken, atomically with the check of the budget and of the
// duplicate guard, before anything is sent, and given back when nothing was charged. The pure rules
// are here, once; the files and PostgreSQL backends run them inside their lock or transaction, and
// the Redis backend runs the same rules in one Lua script (./redis.ts), held equal by the tests.

/** Which budget a reservation counts against. */
export type LedgerKind = 'charge' | 'refund';

/** One reservation: a call of charge or refund_payment under its key. */
export interface Entry {
  kind: LedgerKind;
  /** The idempotency key the agent gave: it names the purchase (or refund). */
  key: string;
  /** The cents it would move. */
  amount: number;
  /** When it was reserved (ms since the epoch, the reserving server's clock). */
  at: number;
  /**
   * What the duplicate guard matches (`content:location|total|reference`, `order:<id>`); charges
   * only. A charge on `order:<id>` also matches an earlier charge that made or paid that order.
   */
  fp: string[];
  order?: string;
  payment?: string;
  refund?: string;
  /** The payment's (or refund's) status as last seen. */
  status?: string;
  /** Given back: nothing was charged (declined, failed, voided, ...) or nothing was sent. */
  released: boolean;
}

/** A check-and-reserve. */
export interface ReserveRequest {
  kind: LedgerKind;
  key: string;
  amount: number;
  fp: string[];
  now: number;
  /** The rolling budget, when the server has one for this kind. */
  budget?: { limit: number; windowMs: number };
  /** 0: no duplicate guard. */
  duplicateWindowMs: number;
  /** The earlier key a person confirmed this call may repeat (the duplicate guard lets it pass). */
  allowDuplicateOf?: string;
  /** Entries older than this many ms are dropped (at least the longest window in use). */
  retainMs: number;
}

/** What a check-and-reserve answers. */
export type ReserveAnswer =
  /** Reserved now, or (`existing`) the key holds this very call already: a retry counts once. */
  | { ok: true; existing: boolean; entry: Entry }
  /** The key holds another call (another amount or order): the SDK would refuse it too. */
  | { ok: false; reason: 'conflict'; entry: Entry }
  /** Another key charged the same order within the duplicate window. */
  | { ok: false; reason: 'duplicate'; entry: Entry }
  /** The budget would be passed: `left` cents are left of it in the window. */
  | { ok: false; reason: 'budget'; left: number; spent: number };

/** What an update sets on the entry of a key (after the call was sent, or when it failed). */
export interface EntryPatch {
  order?: string;
  payment?: string;
  refund?: string;
  status?: string;
  released?: boolean;
}

/** The ledger's contract: each method is atomic across every server sharing the store. */
export interface AgentLedger {
  /** Where it is kept, for the server's start line (never a password). */
  readonly where: string;
  /** Checks the duplicate guard and the budget and, when both pass, reserves; one atomic step. */
  reserve(request: ReserveRequest): Promise<ReserveAnswer>;
  /** Sets `patch` on the key's entry (no entry: nothing). */
  update(kind: LedgerKind, key: string, patch: EntryPatch): Promise<void>;
  /** A payment was seen with `status`: its charge entry records it, and gives its amount back when nothing was charged. */
  observe(paymentId: string, status: string): Promise<void>;
  /** The held charge entries at or after `since` whose payment was last seen pending (to read again). */
  pending(since: number): Promise<Entry[]>;
  close(): Promise<void>;
}

/** The payment statuses under which no money moved: the amount goes back to the budget. */
export const GIVES_BACK: readonly string[] = ['declined', 'failed', 'voided', 'cancelled', 'expired'];

const sameFp = (a: string[], b: string[]) => a.length === b.length && a.every((f, i) => f === b[i]);

/**
 * The rules of {@link AgentLedger.reserve} over the entries (mutated: the new entry added, old ones
 * dropped). The Lua script of ./redis.ts is the same rules: a change here is a change there.
 */
export function decide(entries: Entry[], r: ReserveRequest): ReserveAnswer {
  prune(entries, r.now - r.retainMs);
  const own = entries.find((e) => e.kind === r.kind && e.key === r.key);
  // A key whose payment (or refund) is known is done: a retry returns it and sends nothing, so it
  // takes nothing, even when that payment gave its amount back (declined: the retry is no new try).
  const done = own !== undefined && (own.payment ?? own.refund) !== undefined;
  if (own && (!own.released || done)) {
    // The same call again (a retry): already counted. Another call under the key: not this one's.
    return own.amount === r.amount && sameFp(own.fp, r.fp)
      ? { ok: true, existing: true, entry: own }
      : { ok: false, reason: 'conflict', entry: own };
  }
  if (r.duplicateWindowMs > 0 && r.fp.length > 0) {
    const since = r.now - r.duplicateWindowMs;
    const earlier = entries
      .filter(
        (e) =>
          e.kind === r.kind &&
          !e.released &&
          e.key !== r.key &&
          e.key !== r.allowDuplicateOf &&
          e.at >= since &&
          (e.fp.some((f) => r.fp.includes(f)) ||
            (e.order !== undefined && r.fp.includes(`order:${e.order}`))),
      )
      .sort((a, b) => b.at - a.at)[0];
    if (earlier) return { ok: false, reason: 'duplicate', entry: earlier };
  }
  if (r.budget) {
    const spent = spentIn(entries, r.kind, r.now - r.budget.windowMs);
    if (spent + r.amount > r.budget.limit) {
      return { ok: false, reason: 'budget', left: Math.max(0, r.budget.limit - spent), spent };
    }
  }
  const entry: Entry = { kind: r.kind, key: r.key, amount: r.amount, at: r.now, fp: r.fp, released: false };
  if (own) entries.splice(entries.indexOf(own), 1); // a released call under the key: reserved afresh
  entries.push(entry);
  return { ok: true, existing: false, entry };
}

/** The cents held (not given back) by entries of `kind` reserved after `since`. */
export function spentIn(entries: Entry[], kind: LedgerKind, since: number): number {
  return entries
    .filter((e) => e.kind === kind && !e.released && e.at > since)
    .reduce((s, e) => s + e.amount, 0);
}

/** Drops the entries reserved before `before`. */
export function prune(entries: Entry[], before: number): void {
  for (let i = entries.length - 1; i >= 0; i--) if ((entries[i] as Entry).at < before) entries.splice(i, 1);
}

/** Applies {@link AgentLedger.update}; whether anything changed. */
export function patchEntry(entries: Entry[], kind: LedgerKind, key: string, patch: EntryPatch): boolean {
  const entry = entries.find((e) => e.kind === kind && e.key === key);
  if (!entry) return false;
  Object.assign(entry, patch);
  return true;
}

/** Applies {@link AgentLedger.observe}; whether anything changed. */
export function observeIn(entries: Entry[], paymentId: string, status: string): boolean {
  const entry = entries.find((e) => e.kind === 'charge' && e.payment === paymentId);
  if (!entry || entry.status === status) return false;
  entry.status = status;
  if (GIVES_BACK.includes(status)) entry.released = true;
  return true;
}

/** The entries {@link AgentLedger.pending} answers. */
export function pendingIn(entries: Entry[], since: number): Entry[] {
  return entries.filter(
    (e) =>
      e.kind === 'charge' &&
      !e.released &&
      e.payment !== undefined &&
      e.status === 'pending' &&
      e.at >= since,
  );
}
