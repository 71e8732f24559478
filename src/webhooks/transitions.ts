// One transition, one run (api.md 23): what a payment or refund event is about (the resource, the
// kind, and the refund for refund events), recorded in the handler's dedupe store beside the
// `event_id`, so that a webhook and a catch-up pass, or several passes at once, run each once.
import type { DedupeStore } from '../core/stores/dedupe-store.js';
import { REFUND_EVENT_KINDS } from '../schemas/event-envelope.js';
import type { WebhookEvent } from '../schemas/events.js';

/** Where transitions are recorded, and for how long. */
export interface TransitionStore {
  store: DedupeStore;
  /** How long an applied transition is remembered (the handler's `dedupeTtlMs`). */
  ttlMs: number;
  /** How long a run holds its transition's lease (a process killed mid-run frees it after this). */
  leaseMs: number;
}

/** Prefix of the `event_id` of an event a catch-up made: `catchup:<kind>:<payment_id>[:<refund_id>]`. */
export const CATCH_UP_EVENT_PREFIX = 'catchup:';

/**
 * Whether an event was made by `handler.catchUp` (its webhook was lost) rather than delivered by the
 * service: its `event_id` starts with `catchup:` and its envelope carries `catch_up: true`.
 *
 * @example
 * 'payment.approved': (event) => {
 *   if (isCatchUpEvent(event)) metrics.increment('webhook.caught_up');
 *   return fulfil(event.resource.order_id);
 * }
 */
export function isCatchUpEvent(event: { event_id: string }): boolean {
  return (
    event.event_id.startsWith(CATCH_UP_EVENT_PREFIX) && (event as { catch_up?: unknown }).catch_up === true
  );
}

const PREFIX = 'partner-payments:transition:';

/**
 * The transition an event of a known payment kind is about: `kind:payment_id`, and `:refund_id`
 * for a refund event. Undefined for a kind this SDK does not know or a resource without ids.
 */
export function transitionOf(event: WebhookEvent): string | undefined {
  const kind = event.event_kind;
  if (!kind.startsWith('payment.')) return undefined;
  const r = event.resource as { payment_id?: unknown; refund_id?: unknown };
  if (typeof r.payment_id !== 'string') return undefined;
  if ((REFUND_EVENT_KINDS as readonly string[]).includes(kind)) {
    if (typeof r.refund_id !== 'string') return undefined;
    return `${kind}:${r.payment_id}:${r.refund_id}`;
  }
  return `${kind}:${r.payment_id}`;
}

/** The record of an applied transition. */
const appliedKey = (transition: string) => `${PREFIX}applied:${transition}`;
/** The lease of a transition being run. */
const leaseKey = (transition: string) => `${PREFIX}lease:${transition}`;
/** A payment, refund or order whose last transition was applied: catching up reads it no more. */
export const finalKey = (id: string) => `${PREFIX}final:${id}`;

/** Whether `id` is held in the store; false for a store that cannot tell without writing. */
export async function holds(t: TransitionStore, id: string): Promise<boolean> {
  return t.store.has ? (await t.store.has(id)) === true : false;
}

/** Records `id` (a final marker) for the store's TTL. */
export async function mark(t: TransitionStore, id: string): Promise<void> {
  if (t.store.has && (await t.store.has(id))) return;
  await t.store.add(id, t.ttlMs);
}

/**
 * Runs `run` unless `transition` was applied or is being run: `'ran'` (and recorded as applied),
 * `'applied'` (already: nothing ran), `'busy'` (another process runs it now). When `run` throws,
 * nothing is recorded and the error is rethrown: the next pass, or the webhook, runs it.
 *
 * With a store that has `has`, the transition is recorded only after `run` succeeded, under a lease
 * that a killed process lets expire; without it, it is claimed before `run`, as an `event_id` is.
 */
export async function runTransition(
  t: TransitionStore,
  transition: string,
  run: () => unknown,
): Promise<'ran' | 'applied' | 'busy'> {
  const { store } = t;
  const applied = appliedKey(transition);
  if (!store.has) {
    if (!(await store.add(applied, t.ttlMs))) return 'applied';
    try {
      await run();
    } catch (error) {
      await store.delete(applied);
      throw error;
    }
    return 'ran';
  }
  if (await store.has(applied)) return 'applied';
  const lease = leaseKey(transition);
  if (!(await store.add(lease, t.leaseMs))) return 'busy';
  try {
    // Applied by another process between the first look and the lease.
    if (await store.has(applied)) return 'applied';
    await run();
    await store.add(applied, t.ttlMs);
    return 'ran';
  } finally {
    await store.delete(lease);
  }
}
