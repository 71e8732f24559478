// Every process of the fleet charging the same orders with the same keys at the same moment (api.md
// 17: one sends, the others wait for its outcome): what each process got, and what the mock made.
import type { ChargeOutcome, StoreKind } from './protocol.js';
import type { FleetSuite } from './suite.js';

/**
 * How long the door holds each payment POST before the mock sees it: the other processes' calls for
 * the key begin meanwhile (the race), which `startedAt < heldUntil` then proves for each call.
 */
const HOLD_MS = 1_000;

export interface KeyRace {
  orderIds: string[];
  /** Per process, per order (in `orderIds` order): what the call returned or threw. */
  outcomes: ChargeOutcome[][];
  /** The payments the mock holds per order. */
  payments: Map<string, string[]>;
  /** Payment POSTs that reached the mock, and those whose answer the door had the mock lose. */
  posts: number;
  lost: number;
  /** Per order, until when its first POST was held (epoch ms). */
  heldUntil: Map<string, number>;
}

/** Each of the fleet's processes charges `orders` orders, each under its own key, all at once. */
export async function raceOnKeys(suite: FleetSuite, intents: StoreKind, orders: number): Promise<KeyRace> {
  const { fleet, m, engine } = suite;
  const { options, orderIds } = await m.fleetClient('high', { orders, totalCents: 5_000 });
  const target = intents === 'postgres' ? { pgUrl: engine.url } : { redisUrl: engine.url };
  const name = `race-${intents}`;
  await fleet.all((i) => ({
    op: 'client',
    name,
    store: intents,
    intents,
    options: { ...options, settleMs: 200 }, // see crash-recovery.ts: the mock commits before it loses
    ...target,
    flavour: i % 2 ? 'ioredis' : 'node-redis',
  }));
  let posts = 0;
  let lost = 0;
  const heldUntil = new Map<string, number>();
  m.door = async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method !== 'POST' || !path.endsWith('/payments')) return;
    const orderId = path.split('/').at(-2)!;
    if (!heldUntil.has(orderId)) heldUntil.set(orderId, Date.now() + HOLD_MS);
    await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    // Every other payment is made and its answer lost: its sender reconciles while the others wait.
    if (posts++ % 2 === 0) {
      lost++;
      m.mock.failNext({ method: 'POST', path, phase: 'after', network: true });
    }
  };
  try {
    const charges = orderIds.map((orderId) => ({ orderId, key: `race-${orderId}`, amountCents: 1_000 }));
    const replies = await fleet.all({ op: 'charge', name, charges, concurrency: orders });
    const outcomes = replies.map((r) =>
      orderIds.map((orderId) => (r.charged ?? []).find((o) => o.orderId === orderId)!),
    );
    const payments = new Map<string, string[]>(orderIds.map((id) => [id, []]));
    for (const p of m.mock.snapshot().payments) payments.get(p.order_id)?.push(p.payment_id);
    return { orderIds, outcomes, payments, posts, lost, heldUntil };
  } finally {
    m.door = undefined;
  }
}
