// `client.recover()`: settles the intents a process left open when it died mid-call (or that ended
// unknown), by the same reading as a call's reconciliation, and reports each key's outcome.
import type { EventSink } from '../core/observe/events.js';
import { type IntentRecord, revise } from '../core/stores/intent-store.js';
import { type IntentIO, reconcile, settled } from './reconcile.js';

/**
 * Options of `client.recover()`.
 *
 * @example
 * const report = await client.recover({ olderThanMs: 5 * 60_000 });
 */
export interface RecoverOptions {
  /** Only intents last written at least this long ago. @default the client's `settleMs` (30000) */
  olderThanMs?: number;
  /** Cancels the reads. @default undefined */
  signal?: AbortSignal;
}

/**
 * What `client.recover()` found for one key: its payment or refund `landed` (with its id), did
 * `not_landed` (the key may be used again and creates its resource once), or is still `unknown`.
 *
 * @example
 * for (const r of await client.recover()) if (r.outcome === 'unknown') alerts.page(r.idempotencyKey);
 */
export interface RecoveredIntent {
  idempotencyKey: string;
  kind: 'payment' | 'refund';
  orderId: string;
  /** The landed payment, or the refunded payment of a refund. */
  paymentId?: string | undefined;
  /** The landed refund. */
  refundId?: string | undefined;
  outcome: 'landed' | 'not_landed' | 'unknown';
  /** The ids that could be it, when several matched. */
  candidates?: string[] | undefined;
}

/** How long recover() holds a key while it reads. */
const RECOVER_LEASE_MS = 30_000;

/** Resolves every unfinished intent of the store that no live call holds. */
export async function recoverIntents(
  io: IntentIO & { events: EventSink },
  options: RecoverOptions = {},
): Promise<RecoveredIntent[]> {
  const olderThanMs = options.olderThanMs ?? io.settleMs;
  const owner = crypto.randomUUID();
  const report: RecoveredIntent[] = [];
  for (const stale of await io.store.unfinished(olderThanMs)) {
    const begun = await io.store.begin(stale, owner, RECOVER_LEASE_MS);
    if (begun.status !== 'acquired') continue; // finished meanwhile, or a live call took it
    const record = begun.record;
    // One key's unreadable records leave it unknown; the others go on.
    const verdict = await reconcile(io, record, Date.now(), options.signal, undefined);
    const changes: Partial<IntentRecord> =
      verdict.outcome === 'landed'
        ? { state: 'landed', resultId: verdict.id, result: verdict.resource }
        : verdict.outcome === 'not_landed'
          ? { state: 'not_landed' }
          : { state: 'unknown', candidates: verdict.candidates };
    changes.updatedAt = Date.now();
    await io.store.put(revise(record, changes), owner, true);
    report.push(settled(record, verdict));
  }
  return report;
}
