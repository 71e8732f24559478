// Issue 40 across a fleet: every process checks out the same carts with the same key per cart (a
// partner's retried checkouts landing on different instances), while the mock loses the answers of a
// share of the order and payment POSTs after committing them and one process is killed (SIGKILL)
// mid-run; a fresh process then reruns the killed one's carts. The mock's records are audited: every
// cart one order and one payment.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { IntentStore, RecoveredIntent } from '../../src/index.js';
import { isOrderPost, isPaymentPost, OrderPosts } from './checkout-crash.js';
import {
  type Cart,
  type ChargeOutcome,
  type CheckoutWay,
  type StoreKind,
  tallyReconciled,
} from './protocol.js';
import { type Recoverable, untilRecoverable, VICTIM, VICTIM_DEADLINE_MS } from './recoverable.js';
import type { FleetSuite } from './suite.js';

/**
 * Each call's deadline, and so its lease on its key, in the processes that live through the run (and
 * the victim's replacement). Room for a lease wait behind another process, a lost answer's settle and
 * a second send.
 */
const DEADLINE_MS = 8_000;
/**
 * `settleMs`: above the longest the in-process mock may sit on a request it got (24 calls in flight
 * on a shared 2-core machine: see crash-recovery.ts, which saw 3 s at 48).
 */
const SETTLE_MS = 3_000;
const CONCURRENCY = 8;
/** One order POST in LOSE_EVERY and one payment POST in LOSE_EVERY is committed and its answer lost. */
const LOSE_EVERY = 5;

export interface FleetCheckoutOptions {
  intents: StoreKind;
  carts: number;
  /** The victim is killed at the fleet's payment POST number `killAt` (which the mock then commits). */
  killAt: number;
  /** The shared intent store as the test process reads it (its own connection), to wait on. */
  store: IntentStore;
  way?: CheckoutWay;
}

export interface FleetCheckout {
  carts: Cart[];
  /** Phase 1: the survivors' outcomes, and the reconcile events they saw by verdict. */
  survivors: ChargeOutcome[];
  reconciled: Record<string, number>;
  /**
   * When the survivors had all answered, in ms after the kill; and the cart keys left `open` or
   * `unknown` then, which recover() could take all of `afterMs` after the kill (untilRecoverable).
   */
  kill: { answeredAfterMs: number } & Recoverable;
  /** The fresh process's recover() before its rerun, and its rerun of every cart. */
  recovered: RecoveredIntent[];
  rerun: ChargeOutcome[];
  /** recover() in every process at the end. */
  final: RecoveredIntent[];
  lost: { orders: number; payments: number };
  posts: { orders: number; orderCreations: number; payments: number };
  /** Per cart: its orders (by description) and their payments, in the mock's state. */
  orders: Map<string, string[]>;
  payments: Map<string, string[]>;
}

/** Process `w` starts at its own third of the carts and wraps around, so the processes meet on keys. */
const rotated = <T>(list: T[], w: number, size: number) => {
  const at = Math.floor((list.length * w) / size);
  return [...list.slice(at), ...list.slice(0, at)];
};

/**
 * The idempotency keys of the carts' payments: the cart's own (`charge`), or in the naive control
 * one per order the run made for the cart (checkout-worker.ts), read from the mock's records.
 */
function paymentKeys(m: FleetSuite['m'], carts: Cart[], way: CheckoutWay): string[] {
  if (way === 'charge') return carts.map((c) => c.key);
  const keys = new Set(carts.map((c) => c.key));
  return m.mock
    .snapshot()
    .orders.flatMap((o) =>
      o.description && keys.has(o.description) ? [`${o.description}:${o.order_id}`] : [],
    );
}

export async function checkoutFleet(suite: FleetSuite, run: FleetCheckoutOptions): Promise<FleetCheckout> {
  const { fleet, m, engine } = suite;
  const way = run.way ?? 'charge';
  const { options, locationId } = await m.fleetClient('high');
  const nonce = randomUUID().slice(0, 8);
  const carts: Cart[] = Array.from({ length: run.carts }, (_, i) => ({
    key: `cart-${nonce}-${i}`,
    locationId,
    totalCents: 5_000,
    amountCents: 1_000,
  }));
  const target = run.intents === 'postgres' ? { pgUrl: engine.url } : { redisUrl: engine.url };
  const name = `checkout-${nonce}`;
  const client = (w: number, deadlineMs: number) =>
    fleet.send(w, {
      op: 'client',
      name,
      store: run.intents,
      intents: run.intents,
      options: { ...options, maxRetries: 2, settleMs: SETTLE_MS, deadlineMs },
      ...target,
      flavour: w % 2 ? 'ioredis' : 'node-redis',
    });
  await Promise.all(
    Array.from({ length: fleet.size }, (_, w) => client(w, w === VICTIM ? VICTIM_DEADLINE_MS : DEADLINE_MS)),
  );

  const orderPosts = new OrderPosts();
  const lost = { orders: 0, payments: 0 };
  let paymentPosts = 0;
  let killedAt = 0;
  m.door = async (request) => {
    if (isOrderPost(request)) {
      if ((orderPosts.posts + 1) % LOSE_EVERY === 0) {
        lost.orders++;
        // This very request (the path is every order's): matched by its Idempotency-Key.
        const key = request.headers.get('idempotency-key') ?? '';
        m.mock.failNext({
          method: 'POST',
          headers: { 'idempotency-key': key },
          phase: 'after',
          network: true,
        });
      }
      return orderPosts.pass(m, request);
    }
    if (!isPaymentPost(request)) return;
    paymentPosts++;
    if (paymentPosts === run.killAt) {
      await fleet.kill(VICTIM); // mid-call for its calls in flight: this POST's sender may be any
      killedAt = Date.now();
    }
    if (paymentPosts % LOSE_EVERY === 0) {
      lost.payments++;
      const path = new URL(request.url).pathname;
      m.mock.failNext({ method: 'POST', path, phase: 'after', network: true });
    }
  };
  try {
    const first = await Promise.allSettled(
      Array.from({ length: fleet.size }, (_, w) =>
        fleet.send(w, {
          op: 'checkout',
          name,
          carts: rotated(carts, w, fleet.size),
          concurrency: CONCURRENCY,
          way,
        }),
      ),
    );
    if (!killedAt || first[VICTIM]!.status !== 'rejected')
      throw new Error('the victim was not killed mid-run');
    const replies = first.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const answeredAt = Date.now();
    // Before recover(): until the store offers recover() every cart key left open or unknown. Every
    // process used every key, so the dead process's are not told apart, nor need to be: the
    // survivors' calls have all answered, each releasing its key's lease as it ended (a landing
    // write behind its answer lands moments later), so a key still leased is the dead process's,
    // free VICTIM_DEADLINE_MS after the kill at the latest; a key open or unknown is the dead
    // process's, or one a survivor's call ended `unknown` on, which recover() takes too once
    // settled. The fresh process starts meanwhile.
    const [kill] = await Promise.all([
      untilRecoverable(run.store, {
        keys: paymentKeys(m, carts, way),
        killedAt,
        leaseMs: VICTIM_DEADLINE_MS,
        settleMs: SETTLE_MS,
        writtenBy: answeredAt,
      }),
      fleet.restart(VICTIM).then(() => client(VICTIM, DEADLINE_MS)),
    ]);
    const recovered = (await fleet.send(VICTIM, { op: 'recover', name })).recovered ?? [];
    const rerun = await fleet.send(VICTIM, { op: 'checkout', name, carts, concurrency: CONCURRENCY, way });
    const final = await fleet.all({ op: 'recover', name, olderThanMs: 0 });
    const state = m.mock.snapshot();
    const keys = new Set(carts.map((c) => c.key));
    const orders = new Map<string, string[]>(carts.map((c) => [c.key, []]));
    const cartOf = new Map<string, string>();
    for (const o of state.orders) {
      if (!o.description || !keys.has(o.description)) continue;
      orders.get(o.description)!.push(o.order_id);
      cartOf.set(o.order_id, o.description);
    }
    const payments = new Map<string, string[]>(carts.map((c) => [c.key, []]));
    for (const p of state.payments) {
      const cart = cartOf.get(p.order_id);
      if (cart) payments.get(cart)!.push(p.payment_id);
    }
    return {
      carts,
      survivors: replies.flatMap((r) => r.charged ?? []),
      reconciled: tallyReconciled(replies),
      kill: { ...kill, answeredAfterMs: answeredAt - killedAt },
      recovered,
      rerun: rerun.charged ?? [],
      final: final.flatMap((r) => r.recovered ?? []).filter((r) => keys.has(r.idempotencyKey)),
      lost,
      posts: { orders: orderPosts.posts, orderCreations: orderPosts.creations, payments: paymentPosts },
      orders,
      payments,
    };
  } finally {
    m.door = undefined;
  }
}

/** Carts with other than one order or other than one payment; and a line of figures for the log. */
export function auditCheckout(run: FleetCheckout) {
  const not1 = (by: Map<string, string[]>) => [...by].filter(([, ids]) => ids.length !== 1).map(([k]) => k);
  const histogram = (by: Map<string, string[]>) => {
    const h: Record<number, number> = {};
    for (const ids of by.values()) h[ids.length] = (h[ids.length] ?? 0) + 1;
    return JSON.stringify(h);
  };
  const errors = (list: ChargeOutcome[]) => {
    const failed = list.filter((o) => o.error);
    return `${failed.length} failed (${failed.filter((o) => o.error?.outcomeUnknown).length} outcomeUnknown)`;
  };
  const figures = [
    `${run.carts.length} carts, each checked out by 3 processes; POSTs: ${run.posts.orders} order (${run.posts.orderCreations} answered as created), ${run.posts.payments} payment; answers lost after commit: ${run.lost.orders} order, ${run.lost.payments} payment`,
    `survivors: ${run.survivors.length} checkouts, ${errors(run.survivors)}, reconciled ${JSON.stringify(run.reconciled)}; all answered ${run.kill.answeredAfterMs} ms after the kill, the ${run.kill.keys} keys left unfinished recoverable ${run.kill.afterMs} ms after it`,
    `fresh process: recover() ${outcomes(run.recovered)}; rerun of all ${run.rerun.length} carts: ${errors(run.rerun)}; final recover() ${outcomes(run.final)}`,
    `orders per cart ${histogram(run.orders)}, payments per cart ${histogram(run.payments)}`,
  ].join('\n  ');
  return { ordersNot1: not1(run.orders), paymentsNot1: not1(run.payments), figures };
}

function outcomes(list: RecoveredIntent[]): string {
  const count: Record<string, number> = {};
  for (const r of list) count[r.outcome] = (count[r.outcome] ?? 0) + 1;
  return JSON.stringify(count);
}

/**
 * Exactly one order and one payment per cart, by the mock's records; every checkout that answered
 * (the survivors' and the whole rerun) answered them; nothing left open; the faults were played.
 */
export function expectOneEach(run: FleetCheckout, found: ReturnType<typeof auditCheckout>) {
  expect(found.ordersNot1).toEqual([]);
  expect(found.paymentsNot1).toEqual([]);
  const wrong = [...run.survivors, ...run.rerun].filter(
    (o) =>
      o.paymentId !== undefined &&
      (o.orderId !== run.orders.get(o.key)![0] || o.paymentId !== run.payments.get(o.key)![0]),
  );
  expect(wrong).toEqual([]);
  expect(run.rerun).toHaveLength(run.carts.length);
  expect(run.rerun.filter((o) => o.error)).toEqual([]);
  expect(run.recovered.filter((r) => r.outcome === 'unknown')).toEqual([]);
  expect(run.final).toEqual([]);
  expect(run.lost.orders).toBeGreaterThan(10);
  expect(run.lost.payments).toBeGreaterThan(10);
}
