// The crash-recovery run of issue 23 across processes: 3 workers charge orders with one idempotency
// key each while the mock commits payments and loses their answers, one worker is killed with SIGKILL
// mid-run, a fresh process takes its place and calls recover(), the fleet reruns the same work with
// the same keys, and the mock's own records are audited: every order charged exactly once.
import { expect } from 'vitest';
import type { IntentStore, RecoveredIntent } from '../../src/index.js';
import type { FaultSpec } from '../../src/testing/index.js';
import { type Charge, type ChargeOutcome, type StoreKind, tallyReconciled } from './protocol.js';
import { untilRecoverable, VICTIM, VICTIM_DEADLINE_MS } from './recoverable.js';
import type { FleetSuite } from './suite.js';

/**
 * Each call's deadline, and so its lease on its key (api.md 17), in the processes that live through
 * the run (and the victim's replacement). On this shared 2-core machine a call at 3 x 16 in flight
 * takes about 1 s (median) and up to 12 s was seen on Postgres: a call that runs out ends
 * `outcomeUnknown` and the rerun settles it.
 */
export const DEADLINE_MS = 10_000;
/**
 * `settleMs`: how long after a send the service is taken to be done with a lost request; a payment
 * not on the order by then did not land, and the key sends again. It must exceed the longest the
 * "service" may sit on a request, and this mock runs in the test process, which serves all 48 calls
 * in flight: it was seen reading a POST's body 3 s after its client had given up (at its deadline),
 * then committing it. 8 s stays above the mock's lag. It is also what holds recover() back after the
 * kill: recover() takes an intent only once it was last written `settleMs` ago (its `olderThanMs`
 * default), so that its last send is settled; the dead leases lapse before that (VICTIM_DEADLINE_MS),
 * and the wait before recover() (untilRecoverable) ends about SETTLE_MS after the kill. The default,
 * 30 s, would hold it back that long.
 */
export const SETTLE_MS = 8_000;
const CONCURRENCY = 16;
const AMOUNT_CENTS = 1_000;
/**
 * The orders' total: five times a charge, so that the mock would accept a second charge of the same
 * order (a double charge must be possible for the audit to be able to catch one).
 */
const TOTAL_CENTS = 5 * AMOUNT_CENTS;

/** The after-commit faults of the schedule, on every 6th, 6th + 2 and 6th + 4 payment POST. */
const SCHEDULE: [keyof Faults, Partial<FaultSpec>][] = [
  ['reset', { network: true }],
  ['status500', { status: 500 }],
  ['truncated201', { body: 'truncated' }],
];

export interface Faults {
  reset: number;
  status500: number;
  truncated201: number;
}

export interface CrashRunOptions {
  /** The shared intent store ('redis', 'postgres'), or 'memory': one per process (the control). */
  intents: StoreKind;
  /** The shared intent store as the test process reads it (its own connection); none for 'memory'. */
  store?: IntentStore;
  orders: number;
  /**
   * Mid-run: the victim is killed at its first payment POST after `victim` of its own, once the fleet
   * has sent `fleet` (the mock then commits that payment).
   */
  killAfter: { fleet: number; victim: number };
}

export interface CrashRun {
  charges: Charge[];
  /** The phase-1 outcomes of the workers that survived. */
  survivors: ChargeOutcome[];
  /** Reconcile events of the survivors in phase 1, by outcome. */
  reconciled: Record<string, number>;
  kill: {
    victimPosts: number;
    allPosts: number;
    landedBefore: number;
    /** The keys the dead process left open or unknown. */
    deadKeys: number;
    /** When recover() could take them all (untilRecoverable), in ms after the kill. */
    recoverableAfterMs: number;
  };
  /** recover() in the fresh process, before the rerun, and the orders that had a payment just before. */
  startup: { recovered: RecoveredIntent[]; paidBefore: Set<string> };
  rerun: ChargeOutcome[];
  /** recover() in every process after the rerun. */
  final: RecoveredIntent[];
  faults: Faults;
  posts: number;
}

/** What the mock's records say of the charges: orders with two or more payments, with none. */
export function audit(suite: FleetSuite, charges: Charge[]) {
  const paid = paymentsByOrder(suite);
  const count = (c: Charge) => paid.get(c.orderId)?.length ?? 0;
  return {
    paid,
    doubled: charges.filter((c) => count(c) > 1).map((c) => c.key),
    missing: charges.filter((c) => count(c) === 0).map((c) => c.key),
  };
}

function paymentsByOrder(suite: FleetSuite): Map<string, string[]> {
  const paid = new Map<string, string[]>();
  for (const p of suite.m.mock.snapshot().payments) {
    paid.set(p.order_id, [...(paid.get(p.order_id) ?? []), p.payment_id]);
  }
  return paid;
}

const flavour = (i: number) => (i % 2 ? 'ioredis' : 'node-redis');

/** Runs the whole scenario; the caller asserts on what it returns. */
export async function crashRun(suite: FleetSuite, run: CrashRunOptions): Promise<CrashRun> {
  const { fleet, m, engine } = suite;
  if (run.intents !== 'memory' && !run.store)
    throw new Error('a shared intent store needs `store` to wait on');
  const { options, orderIds } = await m.fleetClient('high', { orders: run.orders, totalCents: TOTAL_CENTS });
  const charges = orderIds.map((orderId) => ({
    orderId,
    key: `charge-${orderId}`,
    amountCents: AMOUNT_CENTS,
  }));
  const owner = new Map(charges.map((c, i) => [c.orderId, i % fleet.size]));
  const share = (w: number) => charges.filter((c) => owner.get(c.orderId) === w);
  const target = run.intents === 'postgres' ? { pgUrl: engine.url } : { redisUrl: engine.url };
  const client = (i: number, deadlineMs: number) =>
    fleet.send(i, {
      op: 'client',
      name: 'pay',
      store: run.intents,
      intents: run.intents,
      options: { ...options, maxRetries: 2, settleMs: SETTLE_MS, deadlineMs },
      ...target,
      flavour: flavour(i),
    });
  await Promise.all(
    Array.from({ length: fleet.size }, (_, i) => client(i, i === VICTIM ? VICTIM_DEADLINE_MS : DEADLINE_MS)),
  );

  const faults: Faults = { reset: 0, status500: 0, truncated201: 0 };
  let posts = 0;
  let victimPosts = 0;
  let kill: Omit<CrashRun['kill'], 'deadKeys' | 'recoverableAfterMs'> | undefined;
  let killedAt = 0;
  let restarted: Promise<unknown> = Promise.resolve();
  m.door = async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method !== 'POST' || !path.endsWith('/payments')) return;
    const orderId = path.split('/').at(-2)!;
    posts++;
    const mine = owner.get(orderId) === VICTIM && !kill && ++victimPosts > run.killAfter.victim;
    if (mine && posts >= run.killAfter.fleet) {
      const landedBefore = share(VICTIM).filter((c) => paymentsByOrder(suite).has(c.orderId)).length;
      kill = { victimPosts, allPosts: posts, landedBefore };
      await fleet.kill(VICTIM); // dead before the mock commits this payment: its answer reaches no one
      killedAt = Date.now();
      // Its replacement starts at once, as an orchestrator restarts a crashed instance.
      restarted = fleet.restart(VICTIM).then(() => client(VICTIM, DEADLINE_MS));
    }
    const slot = posts % 6;
    const fault = slot % 2 === 1 ? SCHEDULE[(slot - 1) / 2] : undefined;
    if (fault) {
      faults[fault[0]]++;
      m.mock.failNext({ method: 'POST', path, phase: 'after', ...fault[1] }); // this very request
    }
  };
  try {
    const first = await Promise.allSettled(
      Array.from({ length: fleet.size }, (_, w) =>
        fleet.send(w, { op: 'charge', name: 'pay', charges: share(w), concurrency: CONCURRENCY }),
      ),
    );
    if (!kill || first[VICTIM]!.status !== 'rejected') throw new Error('the victim was not killed mid-run');
    const replies = first.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // Before recover(): until the store offers recover() every key the dead process left (its share:
    // in phase 1 no other process uses them). A memory store died with the process: nothing to wait for.
    const dead = run.store
      ? await untilRecoverable(run.store, {
          keys: share(VICTIM).map((c) => c.key),
          killedAt,
          leaseMs: VICTIM_DEADLINE_MS,
          settleMs: SETTLE_MS,
        })
      : { keys: 0, afterMs: 0 };
    await restarted;
    const paidBefore = new Set(paymentsByOrder(suite).keys());
    const startup = await fleet.send(VICTIM, { op: 'recover', name: 'pay' });
    // The rerun: the fresh process reruns its predecessor's share; the others swap theirs.
    const rerunOf = (w: number) => (w === VICTIM ? w : w === 1 ? 2 : 1);
    const second = await fleet.all((w) => ({
      op: 'charge',
      name: 'pay',
      charges: share(rerunOf(w)),
      concurrency: CONCURRENCY,
    }));
    const final = await fleet.all({ op: 'recover', name: 'pay' });
    return {
      charges,
      survivors: replies.flatMap((r) => r.charged ?? []),
      reconciled: tallyReconciled(replies),
      kill: { ...kill, deadKeys: dead.keys, recoverableAfterMs: dead.afterMs },
      startup: { recovered: startup.recovered ?? [], paidBefore },
      rerun: second.flatMap((r) => r.charged ?? []),
      final: final.flatMap((r) => r.recovered ?? []),
      faults,
      posts,
    };
  } finally {
    m.door = undefined;
  }
}

/** One line of figures for the log: what the run did and found. */
export function figures(run: CrashRun, found: ReturnType<typeof audit>): string {
  const outcomes = (list: RecoveredIntent[]) => {
    const count: Record<string, number> = {};
    for (const r of list) count[r.outcome] = (count[r.outcome] ?? 0) + 1;
    return JSON.stringify(count);
  };
  const failed = (list: ChargeOutcome[]) => {
    const errors = list.filter((o) => o.error);
    return `${errors.length} failed (${errors.filter((o) => o.error?.outcomeUnknown).length} outcomeUnknown)`;
  };
  const took = (list: ChargeOutcome[]) => {
    const ms = list.map((o) => o.tookMs).sort((a, b) => a - b);
    return `median ${ms[ms.length >> 1]} ms, max ${ms.at(-1)} ms`;
  };
  return [
    `${run.charges.length} orders, ${run.posts} payment POSTs, faults ${JSON.stringify(run.faults)}`,
    `killed at the victim's POST ${run.kill.victimPosts} (POST ${run.kill.allPosts} of the fleet's; ${run.kill.landedBefore} of its orders paid before); its ${run.kill.deadKeys} unfinished keys recoverable ${run.kill.recoverableAfterMs} ms after the kill`,
    `survivors: ${run.survivors.length} calls (${took(run.survivors)}), ${failed(run.survivors)}, reconciled ${JSON.stringify(run.reconciled)}`,
    `startup recover(): ${outcomes(run.startup.recovered)}; rerun: ${run.rerun.length} calls (${took(run.rerun)}), ${failed(run.rerun)}`,
    `final recover(): ${outcomes(run.final)}; doubled ${found.doubled.length}, missing ${found.missing.length}`,
  ].join('\n  ');
}

/**
 * Exactly once, by the mock's records and the shared store: one payment per order, every answer and
 * every recovered key is that payment, nothing left open or unknown, the rerun all answered.
 */
export async function expectExactlyOnce(run: CrashRun, found: ReturnType<typeof audit>, store: IntentStore) {
  expect(found.doubled).toEqual([]);
  expect(found.missing).toEqual([]);
  const paymentOf = (orderId: string) => found.paid.get(orderId)?.[0];
  const answered = [...run.survivors, ...run.rerun].filter((o) => o.paymentId !== undefined);
  expect(answered.filter((o) => o.paymentId !== paymentOf(o.orderId))).toEqual([]);
  // A phase-1 call may run out of time and say the outcome is unknown (the rerun settles it); none
  // may say nothing was charged: every payment POST here reached the mock and was committed.
  expect(run.survivors.filter((o) => o.error && !o.error.outcomeUnknown)).toEqual([]);
  expect(run.rerun.filter((o) => o.error)).toEqual([]);
  expect(run.rerun).toHaveLength(run.charges.length);
  // recover() in the fresh process settled its predecessor's keys by the service's records: the
  // payment the dead process never heard of is adopted; "not landed" only where there was none.
  const { recovered, paidBefore } = run.startup;
  expect(recovered.filter((r) => r.outcome === 'unknown')).toEqual([]);
  expect(recovered.some((r) => r.outcome === 'landed')).toBe(true);
  for (const r of recovered) {
    if (r.outcome === 'landed') expect(r.paymentId).toBe(paymentOf(r.orderId));
    else expect(paidBefore.has(r.orderId)).toBe(false);
  }
  expect(run.final).toEqual([]);
  const records = await Promise.all(run.charges.map((c) => store.get(c.key)));
  const wrong = records.filter(
    (r, i) => r?.state !== 'landed' || r.resultId !== paymentOf(run.charges[i]!.orderId),
  );
  expect(wrong).toEqual([]);
  const keys = new Set(run.charges.map((c) => c.key));
  expect((await store.unfinished(0)).filter((r) => keys.has(r.key))).toEqual([]);
}
