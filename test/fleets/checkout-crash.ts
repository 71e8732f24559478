// Issue 40: a process checking a cart out with `client.charge` is killed (SIGKILL) at one point of the
// flow, a fresh process reruns the same charge with the same key on the shared intent store, and the
// mock's records are counted: the cart's orders, the order POSTs that created one, its payments.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { IntentStore, RecoveredIntent } from '../../src/index.js';
import type { CountingMock } from './counting-mock.js';
import type { Cart, ChargeOutcome, CheckoutWay, StoreKind } from './protocol.js';
import { untilRecoverable } from './recoverable.js';
import type { FleetSuite } from './suite.js';

/**
 * Where the process dies:
 * - `order-answer`: the mock created the order; its answer is on the way (killed by the parent).
 * - `before-payment`: the order was answered; the process kills itself as the charge begins the
 *   payment's intent (nothing of the payment stored or sent).
 * - `payment-held`: the payment's POST is held at the mock's door; the parent kills the process and
 *   the POST never reaches the mock (the intent is open, its send unanswered).
 * - `payment-answer`: the mock made the payment; its answer is held and the process killed.
 */
export type KillPoint = 'order-answer' | 'before-payment' | 'payment-held' | 'payment-answer';

/**
 * The killed process's deadline, and so its lease on the key (api.md 17): the fresh process waits
 * this long at most for it. Short, so the run stays short; the rerun has {@link RERUN_DEADLINE_MS}.
 */
const LEASE_MS = 2_000;
const RERUN_DEADLINE_MS = 10_000;
/** No faults and one call in flight: the mock answers in milliseconds. */
const SETTLE_MS = 300;

/** What the mock's records say of one cart. */
export interface CartCount {
  /** Orders with the cart's key as their description. */
  orders: number;
  /** Order POSTs the mock answered 201 without `Idempotent-Replayed`: it created an order. */
  orderCreations: number;
  /** Payments on those orders. */
  payments: number;
}

/** Counts the order POSTs (and those that created an order) that pass the counting mock's door. */
export class OrderPosts {
  posts = 0;
  creations = 0;

  /** The answer of an order POST, passed through the mock here so that its answer can be seen. */
  async pass(m: CountingMock, request: Request): Promise<Response> {
    this.posts++;
    const answer = await m.mock.fetch(request);
    if (answer.status === 201 && answer.headers.get('idempotent-replayed') !== 'true') this.creations++;
    return answer;
  }
}

export const isOrderPost = (request: Request) =>
  request.method === 'POST' && new URL(request.url).pathname === '/pos/v1/orders';
export const isPaymentPost = (request: Request) =>
  request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments');

/** The cart's orders (by description) and their payments, in the mock's state. */
export function count(m: CountingMock, key: string, creations = 0): CartCount & { orderIds: string[] } {
  const state = m.mock.snapshot();
  const orderIds = state.orders.filter((o) => o.description === key).map((o) => o.order_id);
  const payments = state.payments.filter((p) => orderIds.includes(p.order_id)).length;
  return { orders: orderIds.length, orderCreations: creations, payments, orderIds };
}

export interface KillRun {
  key: string;
  killed: boolean;
  /** The cart's count when the process died. */
  atKill: CartCount;
  /** recover() in the fresh process before the rerun (after the dead lease lapsed), when asked. */
  recovered: RecoveredIntent[] | undefined;
  /** Then: when recover() could take the key (untilRecoverable), in ms after the kill. */
  recoverableAfterMs: number | undefined;
  rerun: ChargeOutcome;
  /** Order POSTs the rerun sent. */
  rerunOrderPosts: number;
  /** recover() after the rerun. */
  after: RecoveredIntent[];
  final: CartCount & { orderIds: string[]; paymentIds: string[] };
}

export interface KillOptions {
  intents: StoreKind;
  point: KillPoint;
  /** The fresh process calls recover() before the rerun; otherwise the rerun settles the key itself. */
  recoverFirst?: boolean;
  /** The shared intent store as the test process reads it (its own connection): recoverFirst waits on it. */
  store?: IntentStore;
  /** `naive`: the control's order-then-payment without one key. @default 'charge' */
  way?: CheckoutWay;
}

/** Kills worker 0 at `point` of a cart's charge, reruns it in a fresh process, counts. */
export async function killAndRerun(suite: FleetSuite, run: KillOptions): Promise<KillRun> {
  const { intents, point, way = 'charge' } = run;
  const { fleet, m, engine } = suite;
  if (run.recoverFirst && !run.store) throw new Error('recoverFirst needs `store` to wait on');
  const { options, locationId } = await m.fleetClient('high');
  const cart: Cart = { key: `cart-${randomUUID()}`, locationId, totalCents: 5_000, amountCents: 1_000 };
  const target = intents === 'postgres' ? { pgUrl: engine.url } : { redisUrl: engine.url };
  const client = (deadlineMs: number, dieAtPayment: boolean) =>
    fleet.send(0, {
      op: 'client',
      name: 'checkout',
      store: intents,
      intents,
      options: { ...options, maxRetries: 1, settleMs: SETTLE_MS, deadlineMs },
      ...target,
      dieAtPayment,
    });
  const orders = new OrderPosts();
  let killedAt = 0;
  const kill = async () => {
    await fleet.kill(0);
    killedAt = Date.now();
  };
  m.door = async (request) => {
    if (isOrderPost(request)) {
      const answer = await orders.pass(m, request);
      if (point === 'order-answer' && !killedAt) await kill();
      return answer;
    }
    if (!isPaymentPost(request) || killedAt) return;
    if (point === 'payment-held') {
      await kill();
      return new Response(null, { status: 503 }); // the mock never saw it; nobody reads this
    }
    if (point === 'payment-answer') {
      const answer = await m.mock.fetch(request);
      await kill();
      return answer;
    }
  };
  try {
    await client(LEASE_MS, point === 'before-payment');
    const first = await fleet
      .send(0, { op: 'checkout', name: 'checkout', carts: [cart], concurrency: 1, way })
      .then(
        () => false,
        () => true,
      );
    if (point === 'before-payment') killedAt = Date.now();
    const atKill = count(m, cart.key, orders.creations);
    await fleet.restart(0);
    await client(RERUN_DEADLINE_MS, false);
    let recovered: RecoveredIntent[] | undefined;
    let recoverableAfterMs: number | undefined;
    if (run.recoverFirst && run.store) {
      // recover() skips a key a live call may still hold: until the store offers it the cart's key,
      // free once the dead process's lease lapsed (LEASE_MS after the kill at the latest) and last
      // written SETTLE_MS ago. (The rerun itself waits for the lease, within its deadline.)
      const wait = { keys: [cart.key], killedAt, leaseMs: LEASE_MS, settleMs: SETTLE_MS };
      recoverableAfterMs = (await untilRecoverable(run.store, wait)).afterMs;
      recovered = (await fleet.send(0, { op: 'recover', name: 'checkout' })).recovered ?? [];
    }
    const postsBefore = orders.posts;
    const rerun = await fleet.send(0, {
      op: 'checkout',
      name: 'checkout',
      carts: [cart],
      concurrency: 1,
      way,
    });
    const after = (await fleet.send(0, { op: 'recover', name: 'checkout', olderThanMs: 0 })).recovered ?? [];
    const final = count(m, cart.key, orders.creations);
    const paymentIds = m.mock
      .snapshot()
      .payments.filter((p) => final.orderIds.includes(p.order_id))
      .map((p) => p.payment_id);
    return {
      key: cart.key,
      killed: first,
      atKill,
      recovered,
      recoverableAfterMs,
      rerun: rerun.charged![0]!,
      rerunOrderPosts: orders.posts - postsBefore,
      after,
      final: { ...final, paymentIds },
    };
  } finally {
    m.door = undefined;
  }
}

/** One order, created by one POST, and one payment: the rerun returned them; nothing left open. */
export function expectOneOfEach(run: KillRun, point: KillPoint) {
  expect(run.killed).toBe(true);
  expect({
    orders: run.final.orders,
    orderCreations: run.final.orderCreations,
    payments: run.final.payments,
  }).toEqual({ orders: 1, orderCreations: 1, payments: 1 });
  expect(run.rerun.error).toBeUndefined();
  expect(run.rerun.orderId).toBe(run.final.orderIds[0]);
  expect(run.rerun.paymentId).toBe(run.final.paymentIds[0]);
  // Once the payment's intent is in the store, the rerun makes no order request at all.
  const known = point === 'payment-held' || point === 'payment-answer';
  expect(run.rerunOrderPosts).toBe(known ? 0 : 1);
  expect(run.after.filter((r) => r.idempotencyKey === run.key)).toEqual([]);
}

/**
 * A run killed with its payment made and the answer held, recover() first: recover() reports the
 * key landed with the payment the rerun returns, and the cart has one of each.
 */
export function expectRecoveredLanded(run: KillRun) {
  console.info(`recover() could take the key ${run.recoverableAfterMs} ms after the kill`);
  const mine = run.recovered?.filter((r) => r.idempotencyKey === run.key);
  expect(mine).toEqual([expect.objectContaining({ outcome: 'landed', paymentId: run.final.paymentIds[0] })]);
  expectOneOfEach(run, 'payment-answer');
}
