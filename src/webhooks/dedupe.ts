// De-duplication of webhook deliveries on `event_id` (delivery is at least once): `createDeduplicator()`
// and the handler's timed claim. The DedupeStore contract and its memory store are in core/stores.
import { PaymentsError } from '../core/errors/api-errors.js';
import { DEFAULT_DEDUPE_TTL_MS, type DedupeStore, MemoryDedupeStore } from '../core/stores/dedupe-store.js';

/**
 * Options of {@link createDeduplicator}.
 *
 * @example
 * const options: DeduplicatorOptions = { store: redisStore, ttlMs: 48 * 60 * 60_000 };
 */
export interface DeduplicatorOptions {
  /** Where seen ids are kept. @default new MemoryDedupeStore() */
  store?: DedupeStore;
  /**
   * How long an id is remembered. Keep it above the retry schedule's span (about 14 h 36 min); a
   * dead-letter replay later than this is processed again, so handlers should still be safe to repeat.
   * @default 86400000 (24 hours)
   */
  ttlMs?: number;
}

/**
 * What {@link Deduplicator.runOnce} did: skipped a duplicate, or ran the handler and kept its result.
 *
 * @example
 * const outcome = await dedupe.runOnce(event.event_id, () => handle(event));
 * if (!outcome.duplicate) console.log(outcome.result);
 */
export type DedupeOutcome<T> = { duplicate: true } | { duplicate: false; result: T };

/**
 * De-duplication of webhook deliveries on `event_id` (spec 6.6: delivery is at least once).
 *
 * @example
 * if (await dedupe.claim(event.event_id)) {
 *   try {
 *     await queue.push(event);
 *   } catch (err) {
 *     await dedupe.release(event.event_id); // let the service's retry through
 *     throw err;
 *   }
 * }
 */
export interface Deduplicator {
  /** Claims `eventId`: true the first time (process it), false for a redelivery (acknowledge it only). */
  claim(eventId: string): Promise<boolean>;
  /** Gives a claim back after processing failed, so the service's retry is processed. */
  release(eventId: string): Promise<void>;
  /**
   * Runs `handler` unless `eventId` was already claimed; when `handler` throws, the claim is released
   * and the error rethrown (answer 5xx and the service retries).
   */
  runOnce<T>(eventId: string, handler: () => T | Promise<T>): Promise<DedupeOutcome<T>>;
}

function checkId(eventId: unknown): string {
  if (typeof eventId !== 'string' || eventId.length === 0) {
    throw new PaymentsError('An event id must be a non-empty string (the event_id of a verified event).');
  }
  return eventId;
}

/**
 * Creates a de-duplicator on `event_id`. Claim an id before acting on an event: the service delivers at
 * least once, and a delivery that timed out on its side may arrive again while the first is running.
 *
 * @example
 * import { createDeduplicator, verifyWebhook } from 'partner-payments/webhooks';
 *
 * const dedupe = createDeduplicator(); // in memory; pass { store } for several instances
 *
 * const event = verifyWebhook(rawBody, signature, secret);
 * const outcome = await dedupe.runOnce(event.event_id, () => handle(event));
 * // outcome.duplicate: a redelivery, already handled: answer 2xx all the same
 */
export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const store = options.store ?? new MemoryDedupeStore();
  const ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new PaymentsError('ttlMs must be a positive number.');
  const claim = async (eventId: string) => (await store.add(checkId(eventId), ttlMs)) === true;
  const release = async (eventId: string) => {
    await store.delete(checkId(eventId));
  };
  return {
    claim,
    release,
    async runOnce(eventId, handler) {
      if (!(await claim(eventId))) return { duplicate: true };
      try {
        return { duplicate: false, result: await handler() };
      } catch (err) {
        await release(eventId);
        throw err;
      }
    },
  };
}

/** The `dedupeTimeoutMs` of a webhook handler, checked: a positive number of milliseconds. */
export function dedupeTimeoutOf(value: number | undefined): number {
  if (value === undefined) return 5_000;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new PaymentsError('dedupeTimeoutMs must be a positive number of milliseconds.');
  }
  return value;
}

/**
 * Claims `eventId`, or rejects when the store has not answered within `ms`. A claim that lands after
 * that is released, so that the service's retry of the event is processed rather than skipped.
 */
export async function claimWithin(dedupe: Deduplicator, eventId: string, ms: number): Promise<boolean> {
  const claim = dedupe.claim(eventId);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PaymentsError(`The webhook de-duplication store did not answer within ${ms} ms.`)),
      ms,
    );
  });
  try {
    return await Promise.race([claim, timeout]);
  } catch (error) {
    claim.then((claimed) => (claimed ? dedupe.release(eventId) : undefined)).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
