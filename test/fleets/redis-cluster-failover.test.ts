// Intents that survive a failover (issue 42, api.md 20): on a Redis Cluster of three masters with a
// replica each, `redisStores(cluster, { durability })` makes each payment's intent acknowledged by a
// replica before the payment is sent. The master that holds the keys' intents is killed with SIGKILL
// while their payments' answers are held; the cluster promotes its replica; the keys are run again:
// one payment per key. The same run without `durability` loses the intents and pays twice (the
// audit's positive control). And a durability the cluster cannot give (2 replicas of 1) sends nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type IntentRecord,
  PaymentsClient,
  type PaymentsClientOptions,
  StoreDurabilityError,
} from '../../src/index.js';
import { type RedisClientLike, type RedisStoresOptions, redisStores } from '../../src/stores/index.js';
import { bucketKeys } from '../../src/stores/redis/intent-scripts.js';
import { clusterUrl, connectCluster, type RedisClusterEngine, startRedisCluster } from './cluster.js';
import { type CountingMock, startCountingMock } from './counting-mock.js';

type Flavour = 'node-redis' | 'ioredis';

let cluster: RedisClusterEngine;
let m: CountingMock;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [cluster, m] = await Promise.all([
    startRedisCluster(),
    startCountingMock({ rateLimits: false, clock: { realTime: true } }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all(closers.map((close) => close().catch(() => {})));
  await m?.close();
  await cluster?.stop();
});

async function connect(flavour: Flavour): Promise<RedisClientLike> {
  const { client, close } = await connectCluster(clusterUrl(cluster), flavour);
  closers.push(close);
  return client;
}

/** A client of the mock whose intents are on the cluster, and its orders (5 charges' worth each). */
async function payer(
  redis: RedisClientLike,
  options: RedisStoresOptions,
  orders = 1,
  extra: Partial<PaymentsClientOptions> = {},
) {
  const made = await m.fleetClient('high', { orders, totalCents: 5_000 });
  const client = new PaymentsClient({
    ...made.options,
    ...extra,
    intentStore: redisStores(redis, options).intentStore,
    settleMs: 500,
    deadlineMs: 15_000,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  return { client, orderIds: made.orderIds };
}

const paymentPosts = (request: Request) =>
  request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments');

const paymentsOf = (orderId: string) => m.mock.snapshot().payments.filter((p) => p.order_id === orderId);

describe('durability that the cluster cannot give', () => {
  it('replicas: 2 with one replica per master: StoreDurabilityError, no payment request sent; the key is free for a rerun', async () => {
    const redis = await connect('ioredis');
    let posts = 0;
    m.door = (request) => {
      if (paymentPosts(request)) posts++;
    };
    try {
      const strict = await payer(redis, { durability: { replicas: 2, timeoutMs: 200 } });
      const [orderId] = strict.orderIds;
      const key = `durable-${randomUUID()}`;
      const charge = (client: PaymentsClient) =>
        client.payments.create(orderId!, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: key });
      const error = await charge(strict.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreDurabilityError);
      expect(error).toMatchObject({ idempotencyKey: key, replicas: 2 });
      // The one replica there is acknowledges within the 200 ms, or not at all on a loaded machine:
      // either way fewer than asked.
      expect((error as StoreDurabilityError).acknowledged).toBeLessThan(2);
      expect(posts).toBe(0);
      expect(paymentsOf(orderId!)).toEqual([]);
      // Positive control: the same count sees the payment a durability of one replica lets through,
      // and the key the failed call released is used at once.
      const one = await payer(redis, { durability: { replicas: 1, timeoutMs: 2_000 } });
      const payment = await charge(one.client);
      expect(posts).toBe(1);
      expect(paymentsOf(orderId!).map((p) => p.payment_id)).toEqual([payment.payment_id]);
    } finally {
      m.door = undefined;
    }
  });
});

interface FailoverRun {
  /** Payments per order after the rerun. */
  paid: number[];
  /** What the first calls and the rerun returned (a payment id or an error name). */
  first: string[];
  rerun: string[];
  killed: number;
  promoted: number;
  /** From the start to the first calls' end, and to the rerun's. */
  firstMs: number;
  tookMs: number;
}

/**
 * Charges `orders` orders whose intents live on one master, holds their payment requests, kills that
 * master with SIGKILL and waits for its replica's promotion, lets the requests through, then runs
 * the same keys again on a fresh client (a restarted instance).
 */
async function failover(
  flavour: Flavour,
  options: RedisStoresOptions,
  cutLink: boolean,
  rerunOptions = options,
  orders = 4,
): Promise<FailoverRun> {
  const started = Date.now();
  const redis = await connect(flavour);
  const { client, orderIds } = await payer(redis, options, 24);
  // The orders whose intents (their bucket's slot) live on one master: the victim.
  const recordKey = (orderId: string) => bucketKeys(orderId).record(`failover-${orderId}`);
  const masters = await Promise.all(orderIds.map((id) => cluster.masterOf(recordKey(id))));
  const victim = masters[0]!;
  const chosen = orderIds.filter((_, i) => masters[i] === victim).slice(0, orders);
  // The window an asynchronous write leaves, held open: the intents written now are on the master alone.
  if (cutLink) await cluster.cutOff(victim);
  let promoted = 0;
  let crash: Promise<void> | undefined;
  const killVictim = () =>
    (crash ??= (async () => {
      await cluster.kill(victim);
      promoted = await cluster.failedOver(recordKey(chosen[0]!), victim);
    })());
  m.door = async (request) => {
    if (paymentPosts(request)) await killVictim(); // the answer is held until the replica took over
  };
  const charge = (c: PaymentsClient, orderId: string) =>
    c.payments
      .create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: `failover-${orderId}` })
      .then(
        (p) => p.payment_id,
        (e: unknown) => (e as Error).name,
      );
  try {
    const first = await Promise.all(chosen.map((id) => charge(client, id)));
    await killVictim(); // when nothing was sent (the durability refused), the master dies now
    const firstMs = Date.now() - started;
    const fresh = await payer(await connect(flavour), rerunOptions);
    const rerun = await Promise.all(chosen.map((id) => charge(fresh.client, id)));
    return {
      paid: chosen.map((id) => paymentsOf(id).length),
      first,
      rerun,
      killed: victim,
      promoted,
      firstMs,
      tookMs: Date.now() - started,
    };
  } finally {
    m.door = undefined;
  }
}

describe('a master killed mid-payment, its replica promoted (cluster-node-timeout 1 s)', () => {
  vi.setConfig({ testTimeout: 90_000 });
  // Each run kills a master: the next one starts on a fresh cluster.
  beforeEach(async () => {
    if ((await cluster.nodes()).some((n) => n.failed)) {
      await cluster.stop();
      cluster = await startRedisCluster();
    }
  }, 60_000);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-/;

  it.each<Flavour>(['ioredis', 'node-redis'])(
    'with durability: { replicas: 1 } (%s), every key yields exactly one payment',
    async (flavour) => {
      // The rerun runs without durability: the promoted replica has no replica of its own until the
      // dead master comes back, and a durable write there is refused (StoreDurabilityError, nothing sent).
      const run = await failover(flavour, { durability: { replicas: 1, timeoutMs: 2_000 } }, false, {});
      console.info(`failover with durability (${flavour}): ${JSON.stringify(run)}`);
      expect(run.promoted).not.toBe(run.killed);
      expect(run.paid).toEqual(run.paid.map(() => 1));
      // The rerun returns each key's one payment.
      expect(run.rerun.every((r) => uuid.test(r))).toBe(true);
    },
  );

  it('with durability and the replica cut off: StoreDurabilityError, nothing sent before the kill, one payment per key after', async () => {
    // The promoted replica has no replica of its own until the dead master comes back: the rerun runs
    // without durability (with it, every call would refuse, sending nothing).
    const run = await failover('ioredis', { durability: { replicas: 1, timeoutMs: 500 } }, true, {});
    console.info(`failover with durability, replica cut off: ${JSON.stringify(run)}`);
    expect(run.first).toEqual(run.first.map(() => 'StoreDurabilityError'));
    expect(run.paid).toEqual(run.paid.map(() => 1));
  });

  it('without durability and the replica cut off, the lost intents look new to the rerun and are paid again (the positive control)', async () => {
    const run = await failover('ioredis', {}, true);
    console.info(`failover without durability, replica cut off: ${JSON.stringify(run)}`);
    // The check of the runs above catches the second payments.
    expect(run.paid.some((n) => n > 1)).toBe(true);
  });
});

/** Polls `check` every 50 ms until it holds; fails naming `what` after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const bound = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > bound) throw new Error(`${timeoutMs} ms and still not: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The runs above pass whether or not the intent's write waits for its replica: on loopback a replica
// has every write within a fraction of a millisecond, long before a killed master's replica is
// promoted. Here the master's replication is held back (the replica cut off) when the write is
// made, and the link comes back only once a `WAIT` is blocked on that master: the write reaches
// the replica before the payment leaves because, and only because, the store waited for it.
describe('what WAIT holds: the replica is cut off when the intent is written', () => {
  vi.setConfig({ testTimeout: 90_000 });
  beforeEach(async () => {
    if ((await cluster.nodes()).some((n) => n.failed)) {
      await cluster.stop();
      cluster = await startRedisCluster();
    }
  }, 60_000);

  /** Heals the victim's replica link once a WAIT is blocked on it; stops looking once `sent()`. */
  const healOnWait = (victim: number, sent: () => boolean) =>
    until('a WAIT blocked on the master, or the request sent without one', async () => {
      if (sent()) return true;
      if ((await cluster.waiting(victim)) === 0) return false;
      await cluster.heal(victim);
      return true;
    });

  it.each<Flavour>(['ioredis', 'node-redis'])(
    '%s: the master killed as the payment leaves, its replica promoted: the intent is there, the rerun returns the one payment',
    async (flavour) => {
      const redis = await connect(flavour);
      const { client, orderIds } = await payer(redis, { durability: { replicas: 1, timeoutMs: 15_000 } });
      const orderId = orderIds[0]!;
      const key = `waited-${orderId}`;
      const record = bucketKeys(orderId).record(key);
      const victim = await cluster.masterOf(record);
      let posts = 0;
      let promoted = 0;
      m.door = async (request) => {
        if (!paymentPosts(request)) return;
        // The master dies the moment the payment leaves: what its replica lacks now is lost.
        if (++posts === 1) {
          await cluster.kill(victim);
          promoted = await cluster.failedOver(record, victim);
        }
      };
      const charge = (c: PaymentsClient) =>
        c.payments.create(orderId, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: key });
      try {
        await cluster.cutOff(victim);
        const paying = charge(client);
        await healOnWait(victim, () => posts > 0);
        const payment = await paying;
        expect(promoted).not.toBe(victim);
        // A restarted instance (without durability: the promoted replica has no replica of its own).
        const rerun = await charge((await payer(await connect(flavour), {})).client);
        expect(rerun.payment_id).toBe(payment.payment_id);
        expect(posts).toBe(1);
        expect(paymentsOf(orderId)).toHaveLength(1);
      } finally {
        m.door = undefined;
      }
    },
  );

  it.each<Flavour>(['ioredis', 'node-redis'])(
    '%s: the write before a resend (its record, second send) is on the replica before the resend leaves',
    async (flavour) => {
      const redis = await connect(flavour);
      // Long enough for the heal on a loaded machine (the WAIT ends as soon as the link is back).
      const durability = { replicas: 1, timeoutMs: 15_000 };
      const { client, orderIds } = await payer(redis, { durability }, 1, { maxRetries: 1 });
      const orderId = orderIds[0]!;
      const key = `resent-${orderId}`;
      const record = bucketKeys(orderId).record(key);
      const victim = await cluster.masterOf(record);
      let posts = 0;
      let onReplica: IntentRecord | undefined;
      m.door = async (request) => {
        if (!paymentPosts(request)) return;
        if (++posts === 1) {
          // The first send provably never reaches the service (reconciled: not landed, so sent again);
          // from now on the master's writes reach no replica until a WAIT brings the link back.
          await cluster.cutOff(victim);
          m.mock.failNext({ method: 'POST', path: new URL(request.url).pathname, network: true });
          return;
        }
        const raw = await cluster.onReplica(victim, 'HGET', record, 'rec');
        onReplica = typeof raw === 'string' ? (JSON.parse(raw) as IntentRecord) : undefined;
      };
      try {
        const paying = client.payments.create(
          orderId,
          { method: 'card', amount_cents: 1_000 },
          { idempotencyKey: key },
        );
        await until('the first send', async () => posts > 0);
        await healOnWait(victim, () => posts > 1);
        const payment = await paying;
        expect(posts).toBe(2);
        // What a promoted replica would hand a reconciler: the second send, not only the first.
        expect(onReplica).toMatchObject({ key, sends: 2 });
        expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([payment.payment_id]);
      } finally {
        m.door = undefined;
        // A failed run must not leave the next one a master whose replica is cut off.
        await cluster.heal(victim).catch(() => {});
      }
    },
  );
});
