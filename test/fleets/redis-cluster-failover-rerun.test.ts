// A failover in the middle of a fleet's payments, on either cluster client (api.md 20): three
// processes pay 45 keys with `durability: { replicas: 1 }`; one payment's answer is held; the master
// that holds its intent is killed with SIGKILL, its replica promoted, the old master started again
// (it comes back as a replica of the new one); then the same 45 keys are run again, by the three
// processes (whose clients still map the moved slots to the old master: their first command there
// meets a MOVED answer) and by a new process, while the held answer is still held. Every key ends
// with exactly one payment POST and one payment. A client that learns the new slots by writing to
// the key (`PEXPIRE key 1 XX`, what the node-redis link once did) deletes the intent under the
// rerun's feet and fails this: the rerun then begins the key afresh and pays it again.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentsClientOptions } from '../../src/index.js';
import { redisStores } from '../../src/stores/index.js';
import { bucketKeys } from '../../src/stores/redis/intent-scripts.js';
import { clusterUrl, connectCluster, type RedisClusterEngine, startRedisCluster } from './cluster.js';
import { type CountingMock, startCountingMock } from './counting-mock.js';
import { type Fleet, startFleet } from './fleet.js';
import type { Charge, ChargeOutcome, Reply } from './protocol.js';

type Flavour = 'node-redis' | 'ioredis';

const KEYS = 45;
/** The three processes that pay first, and the new one that reruns the keys after the failover. */
const PAYERS = [0, 1, 2];
const NEW_PROCESS = 3;
/** The first calls' deadline (their leases): the held call must outlive the failover and the rerun. */
const FIRST_DEADLINE_MS = 45_000;
/** The rerun's: a call for the held key waits this long for it, then gives up having sent nothing. */
const RERUN_DEADLINE_MS = 3_000;
const DURABILITY = { replicas: 1, timeoutMs: 2_000 };
const POLL_MS = 50;

let cluster: RedisClusterEngine;
let m: CountingMock;
let fleet: Fleet;

beforeAll(async () => {
  [m, fleet] = await Promise.all([
    startCountingMock({ rateLimits: false, clock: { realTime: true } }),
    startFleet(PAYERS.length + 1),
  ]);
}, 120_000);
afterAll(async () => {
  await fleet?.close();
  await m?.close();
  await cluster?.stop();
});

const keyOf = (orderId: string) => `rerun-${orderId}`;
const recordKey = (orderId: string) => bucketKeys(orderId).record(keyOf(orderId));

/** Polls `check` every POLL_MS until it holds; fails naming `what` after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const bound = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > bound) throw new Error(`${timeoutMs} ms and still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const outcomesOf = (replies: Reply[]): ChargeOutcome[] => replies.flatMap((r) => r.charged ?? []);

describe('a master killed while a payment is held, the keys rerun after the failover (45 keys, 3 processes + 1 new)', () => {
  vi.setConfig({ testTimeout: 120_000 });
  beforeEach(async () => {
    // Each run kills a master: each starts on a fresh cluster.
    await cluster?.stop();
    cluster = await startRedisCluster();
  }, 60_000);

  it.each<Flavour>(['node-redis', 'ioredis'])(
    '%s: every key exactly one payment POST and one payment',
    async (flavour) => {
      const url = clusterUrl(cluster);
      const made = await m.fleetClient('high', { orders: KEYS, totalCents: 5_000 });
      const { orderIds } = made;
      // The held payment: the first order's; the victim: the master that holds its intent.
      const held = orderIds[0]!;
      const victim = await cluster.masterOf(recordKey(held));
      const client = (name: string, deadlineMs: number) => ({
        op: 'client' as const,
        name,
        store: 'redis' as const,
        intents: 'redis' as const,
        options: { ...made.options, settleMs: 500, deadlineMs } satisfies PaymentsClientOptions,
        redisUrl: url,
        redisOptions: { durability: DURABILITY },
        flavour,
      });
      const charges = (ids: string[]): Charge[] =>
        ids.map((orderId) => ({ orderId, key: keyOf(orderId), amountCents: 1_000 }));
      const share = (i: number) => orderIds.filter((_, k) => k % PAYERS.length === i);

      // The service's request log as the door sees it: payment POSTs per order. The held order's first
      // POST waits for `release`.
      const posts = new Map<string, number>();
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let heldArrived!: () => void;
      const arrived = new Promise<void>((resolve) => {
        heldArrived = resolve;
      });
      m.door = async (request) => {
        const path = new URL(request.url).pathname;
        if (request.method !== 'POST' || !path.endsWith('/payments')) return;
        const orderId = path.split('/').at(-2)!;
        posts.set(orderId, (posts.get(orderId) ?? 0) + 1);
        if (orderId === held && posts.get(orderId) === 1) {
          heldArrived();
          await released;
        }
      };
      // The test's own reader of the intents (ioredis, connected before the kill: used before it only).
      const reader = await connectCluster(url, 'ioredis');
      try {
        await Promise.all(PAYERS.map((i) => fleet.send(i, client('first', FIRST_DEADLINE_MS))));
        const first = Promise.all(
          PAYERS.map((i) =>
            fleet.send(i, { op: 'charge', name: 'first', charges: charges(share(i)), concurrency: 15 }),
          ),
        );
        first.catch(() => {}); // awaited below; a failure before that is the test's own
        // The kill comes when the held payment is in flight and every other key's intent is landed: the
        // processes are idle, their clients' slot maps as they were before the failover.
        await arrived;
        const store = redisStores(reader.client).intentStore;
        const others = orderIds.filter((id) => id !== held);
        await until('every other key paid and recorded landed', async () => {
          const records = await Promise.all(others.map((id) => store.get(keyOf(id))));
          return records.every((r) => r?.state === 'landed');
        });
        await reader.close();
        await cluster.kill(victim);
        const promoted = await cluster.failedOver(recordKey(held), victim);
        await cluster.restart(victim);
        await cluster.rejoined(victim);
        expect(promoted).not.toBe(victim);

        // The rerun while the held answer is still held: the three processes (stale slot maps) and a new one.
        await Promise.all(PAYERS.map((i) => fleet.send(i, client('rerun', RERUN_DEADLINE_MS))));
        await fleet.send(NEW_PROCESS, client('rerun', RERUN_DEADLINE_MS));
        const rerun = await Promise.all([
          ...PAYERS.map((i) =>
            fleet.send(i, { op: 'charge', name: 'rerun', charges: charges(share(i)), concurrency: 15 }),
          ),
          fleet.send(NEW_PROCESS, {
            op: 'charge',
            name: 'rerun',
            charges: charges(orderIds),
            concurrency: 45,
          }),
        ]);
        release();
        const firstRun = outcomesOf(await first);

        const paid = new Map(firstRun.map((o) => [o.orderId, o.paymentId]));
        const payments = m.mock.snapshot().payments.filter((p) => paid.has(p.order_id));
        const perOrder = (counts: Map<string, number>) => orderIds.map((id) => counts.get(id) ?? 0);
        const paymentCount = new Map<string, number>();
        for (const p of payments) paymentCount.set(p.order_id, (paymentCount.get(p.order_id) ?? 0) + 1);
        const doubled = orderIds.filter((id) => (posts.get(id) ?? 0) !== 1 || paymentCount.get(id) !== 1);
        console.info(
          `failover rerun (${flavour}): victim ${victim}, promoted ${promoted}; keys with other than one ` +
            `payment POST and one payment: ${doubled.length} ${JSON.stringify(
              doubled.map((id) => ({ orderId: id, posts: posts.get(id), payments: paymentCount.get(id) })),
            )}`,
        );
        expect(firstRun.filter((o) => o.error)).toEqual([]);
        expect(perOrder(posts)).toEqual(orderIds.map(() => 1));
        expect(perOrder(paymentCount)).toEqual(orderIds.map(() => 1));
        // The rerun returned each finished key's one payment; the held key it left alone, sending nothing.
        for (const o of outcomesOf(rerun)) {
          if (o.orderId === held) expect(o.error?.message).toMatch(/Another call holds/);
          else expect(o.paymentId, o.key).toBe(paid.get(o.orderId));
        }
      } finally {
        release();
        m.door = undefined;
        await reader.close().catch(() => {});
      }
    },
  );
});
