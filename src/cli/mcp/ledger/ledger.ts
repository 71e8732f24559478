// The agent ledger of `partner-payments mcp` (api.md 24): what the charge and refund_payment tools
// reserved, for the rolling budgets and the duplicate guard. Its own small contract, apart from the
// SDK's intent store: a reservation is taken, atomically with the check of the budget and of the
// duplicate guard, before anything is sent, and given back when nothing was charged. The pure rules
// are here, once; the files and PostgreSQL backends run them inside their lock or transaction, and
// the Redis backend runs the same rules in Lua scripts (./redis.ts), held equal by the tests.

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
  /** The payment's (or refund's) status as last seen, or `not_landed` (a verdict on the key). */
  status?: string;
  /** Given back: nothing was charged (declined, failed, voided, not landed, ...) or nothing was sent. */
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
  /**
   * What was seen of one entry (see {@link Sighting}): the entry records it, and gives its amount
   * back when it says nothing was charged. Resolves to the entry when this very sighting gave it
   * back, else undefined: of several servers seeing the same thing, one gives back, once.
   */
  observe(seen: Sighting): Promise<Entry | undefined>;
  /**
   * The held entries reserved at or after `since` whose payment (or refund) is known and was last
   * seen pending, or not seen yet (to read again).
   */
  pending(since: number): Promise<Entry[]>;
  close(): Promise<void>;
}

/** The payment statuses under which no money moved: the amount goes back to the budget. */
export const GIVES_BACK: readonly string[] = ['declined', 'failed', 'voided', 'cancelled', 'expired'];
/** The refund statuses under which no money moved. */
export const REFUND_GIVES_BACK: readonly string[] = ['failed'];

/** Whether a payment (`charge`) or refund seen with `status` moved no money. */
export const givesBack = (kind: LedgerKind, status: string): boolean =>
  (kind === 'charge' ? GIVES_BACK : REFUND_GIVES_BACK).includes(status);

/**
 * What was seen of one entry: its payment (`by: 'payment'`, charges) or its refund (`by: 'refund'`)
 * with its status, or a verdict of the service's records on a key whose outcome was unknown (`by:
 * 'key'`, `status` `landed` with the ids it produced, or `not_landed`: nothing was charged).
 */
export interface Sighting {
  kind: LedgerKind;
  by: 'payment' | 'refund' | 'key';
  /** The payment id, the refund id or the key. */
  id: string;
  status: string;
  /** With a `landed` verdict: the order, the payment (or the refunded payment) and the refund. */
  order?: string;
  payment?: string;
  refund?: string;
}

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

/**
 * Applies {@link AgentLedger.observe}: whether the entries changed, and the entry this sighting gave
 * back. The OBSERVE script of ./redis.ts is the same rules.
 *
 * A status is recorded on the entry of that payment (or refund), which gives its amount back when
 * the status says no money moved. A verdict on a key speaks only while the key's payment (or
 * refund) is not known: `not_landed` gives the amount back; `landed` records the ids and holds the
 * amount again (money moved, whatever gave it back meanwhile); once the payment is known, its
 * status decides. An entry given back is never given back twice, however often it is seen.
 */
export function observeIn(entries: Entry[], seen: Sighting): { changed: boolean; given?: Entry } {
  const entry = entries.find((e) => e.kind === seen.kind && e[seen.by] === seen.id);
  if (!entry) return { changed: false };
  if (seen.by === 'key') {
    if ((entry.payment ?? entry.refund) !== undefined) return { changed: false };
    if (seen.status === 'landed') {
      if ((seen.payment ?? seen.refund) === undefined) return { changed: false };
      if (seen.order !== undefined) entry.order = seen.order;
      if (seen.payment !== undefined) entry.payment = seen.payment;
      if (seen.refund !== undefined) entry.refund = seen.refund;
      delete entry.status; // not seen yet: read again like a pending one
      entry.released = false;
      return { changed: true };
    }
    if (seen.status !== 'not_landed' || entry.released) return { changed: false };
    entry.status = seen.status;
    entry.released = true;
    return { changed: true, given: entry };
  }
  if (entry.status === seen.status) return { changed: false };
  entry.status = seen.status;
  if (entry.released || !givesBack(entry.kind, seen.status)) return { changed: true };
  entry.released = true;
  return { changed: true, given: entry };
}

/** The entries {@link AgentLedger.pending} answers. */
export function pendingIn(entries: Entry[], since: number): Entry[] {
  return entries.filter(
    (e) =>
      !e.released &&
      e.at >= since &&
      (e.kind === 'charge' ? e.payment : e.refund) !== undefined &&
      (e.status === 'pending' || e.status === undefined),
  );
}
