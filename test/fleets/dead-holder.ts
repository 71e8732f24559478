// A process killed while it holds keys (api.md 22): worker 0 charges ten orders under its keys with
// a 60 s deadline; the door lets half of its payment POSTs commit and holds their answers, and holds
// the other half before the service sees them; worker 0 is killed with SIGKILL while all ten are in
// flight. The two other workers then call the same ten keys, also with a 60 s deadline. A live call
// renews a short lease (IntentStore.renew), so the dead holder's leases lapse in seconds: each
// survivor takes the key over, reconciles by the order, and returns its one payment (the committed
// one adopted, the other sent once), long before its deadline and never outcomeUnknown.
import type { ChargeOutcome, StoreKind } from './protocol.js';
import type { FleetSuite } from './suite.js';

export const KEYS = 10;
export const DEADLINE_MS = 60_000;
/** The service is done with a request this long after its send (the mock commits at once). */
const SETTLE_MS = 1_000;

export interface DeadHolderRun {
  orderIds: string[];
  /** The orders whose payment the dead worker's POST committed (their answers died with it). */
  committed: Set<string>;
  /** Per survivor, per order (in `orderIds` order): what its call returned or threw. */
  outcomes: ChargeOutcome[][];
  /** Payment POSTs the service processed, per order. */
  processed: Map<string, number>;
  /** The payments the mock holds per order. */
  payments: Map<string, string[]>;
}

export async function deadHolder(suite: FleetSuite, intents: StoreKind): Promise<DeadHolderRun> {
  const { fleet, m, engine } = suite;
  const { options, orderIds } = await m.fleetClient('high', { orders: KEYS, totalCents: 5_000 });
  const target = intents === 'postgres' ? { pgUrl: engine.url } : { redisUrl: engine.url };
  const name = `dead-holder-${intents}`;
  const charges = orderIds.map((orderId) => ({ orderId, key: `dead-${orderId}`, amountCents: 1_000 }));
  await fleet.all((i) => ({
    op: 'client',
    name,
    store: intents,
    intents,
    options: { ...options, settleMs: SETTLE_MS, deadlineMs: DEADLINE_MS },
    ...target,
    flavour: i % 2 ? 'ioredis' : 'node-redis',
  }));

  const committed = new Set<string>();
  const processed = new Map<string, number>();
  let arrived = 0;
  let allArrived!: () => void;
  const victimInFlight = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  m.door = async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method !== 'POST' || !path.endsWith('/payments')) return;
    const orderId = path.split('/').at(-2)!;
    const first = !processed.has(orderId) && !committed.has(orderId) && arrived < KEYS;
    if (!first) {
      processed.set(orderId, (processed.get(orderId) ?? 0) + 1);
      return;
    }
    const index = orderIds.indexOf(orderId);
    arrived++;
    if (index % 2 === 0) {
      // Committed, its answer held until the worker is dead.
      const answer = await m.mock.fetch(request);
      committed.add(orderId);
      processed.set(orderId, 1);
      if (arrived === KEYS) allArrived();
      await released;
      return answer;
    }
    // Held before the service sees it: never processed.
    processed.set(orderId, 0);
    if (arrived === KEYS) allArrived();
    await released;
    return new Response(null, { status: 503 });
  };
  try {
    const victim = fleet.send(0, { op: 'charge', name, charges, concurrency: KEYS });
    victim.catch(() => {}); // it dies with its process
    await victimInFlight;
    await fleet.kill(0);
    release();
    const replies = await Promise.all(
      [1, 2].map((i) => fleet.send(i, { op: 'charge', name, charges, concurrency: KEYS })),
    );
    const outcomes = replies.map((r) =>
      orderIds.map((id) => (r.charged ?? []).find((o) => o.orderId === id) as ChargeOutcome),
    );
    const payments = new Map<string, string[]>(orderIds.map((id) => [id, []]));
    for (const p of m.mock.snapshot().payments)
      if (payments.has(p.order_id)) payments.get(p.order_id)!.push(p.payment_id);
    return { orderIds, committed, outcomes, processed, payments };
  } finally {
    release();
    m.door = undefined;
    await fleet.restart(0);
  }
}
