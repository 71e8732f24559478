// One instance of a partner's fleet, in its own process (forked by fleet.ts, run with tsx): it
// builds clients and stores as a partner would and runs the commands the test sends over IPC.
import { Redis } from 'ioredis';
import pg from 'pg';
import { createClient } from 'redis';
import {
  MemoryIntentStore,
  MemoryRateLimitStore,
  MemoryTokenStore,
  PaymentsClient,
  type PaymentsClientOptions,
  type RateLimitOptions,
} from '../../src/index.js';
import {
  postgresStores,
  type RedisClientLike,
  type RedisStoresOptions,
  redisStores,
} from '../../src/stores/index.js';
import { createDeduplicator, type DedupeStore, verifyWebhook } from '../../src/webhooks/index.js';
import { checkout, dieAtFirstBegin } from './checkout-worker.js';
import { connectCluster, isClusterUrl } from './cluster.js';
import {
  type Charge,
  type ChargeOutcome,
  type Command,
  chargeOutcome,
  type Reply,
  type StoreKind,
} from './protocol.js';

interface Entry {
  client: PaymentsClient;
  minted: number;
  warnings: string[];
  reconciled: Record<string, number>;
}

const clients = new Map<string, Entry>();
const closers: (() => Promise<unknown>)[] = [];
const redisClients = new Map<string, RedisClientLike>();
let pool: pg.Pool | undefined;

async function redisClient(url: string, flavour: 'node-redis' | 'ioredis'): Promise<RedisClientLike> {
  const known = redisClients.get(url);
  if (known) return known;
  let redis: RedisClientLike;
  if (isClusterUrl(url)) {
    const { client, close } = await connectCluster(url, flavour);
    closers.push(close);
    redis = client;
  } else if (flavour === 'ioredis') {
    const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    closers.push(async () => client.disconnect());
    redis = client;
  } else {
    const client = createClient({ url, socket: { reconnectStrategy: 100 } });
    client.on('error', () => {});
    await client.connect();
    closers.push(async () => client.destroy());
    redis = client as unknown as RedisClientLike;
  }
  redisClients.set(url, redis);
  return redis;
}

function pgPool(url: string): pg.Pool {
  if (!pool) {
    const created = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 20_000 });
    created.on('error', () => {});
    closers.push(() => created.end());
    pool = created;
  }
  return pool;
}

// One per process: what a partner's instance keeps in memory dies with it.
const memory = {
  token: new MemoryTokenStore(),
  rate: new MemoryRateLimitStore(),
  intent: new MemoryIntentStore(),
};

async function stores(
  kind: StoreKind,
  cmd: {
    redisUrl?: string;
    pgUrl?: string;
    flavour?: 'node-redis' | 'ioredis';
    redisOptions?: RedisStoresOptions;
  },
) {
  if (kind === 'redis')
    return redisStores(await redisClient(cmd.redisUrl!, cmd.flavour ?? 'node-redis'), cmd.redisOptions);
  if (kind === 'postgres') return { ...postgresStores(pgPool(cmd.pgUrl!)), rateLimitStore: undefined };
  if (kind === 'memory')
    return {
      tokenStore: memory.token,
      rateLimitStore: memory.rate,
      dedupeStore: undefined,
      intentStore: memory.intent,
    };
  return { tokenStore: undefined, rateLimitStore: undefined, dedupeStore: undefined, intentStore: undefined };
}

/** Runs `charges` with `concurrency` calls in flight, each with its own idempotency key. */
async function charge(entry: Entry, charges: Charge[], concurrency: number): Promise<ChargeOutcome[]> {
  const outcomes: ChargeOutcome[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < charges.length; i = next++) {
      const { orderId, key, amountCents } = charges[i]!;
      outcomes.push(
        await chargeOutcome(key, orderId, async () => {
          const payment = await entry.client.payments.create(
            orderId,
            { method: 'card', amount_cents: amountCents },
            { idempotencyKey: key },
          );
          return { orderId, paymentId: payment.payment_id };
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return outcomes;
}

async function run(cmd: Command): Promise<Reply> {
  switch (cmd.op) {
    case 'client': {
      const s = await stores(cmd.store, cmd);
      const shared = cmd.intents ? (await stores(cmd.intents, cmd)).intentStore : undefined;
      const intentStore = shared && cmd.dieAtPayment ? dieAtFirstBegin(shared) : shared;
      const warnings: string[] = [];
      const log = (line: string) => warnings.push(line);
      const options: PaymentsClientOptions = {
        ...cmd.options,
        logger: { debug() {}, info() {}, warn: log, error: log },
        logLevel: 'warn',
        ...(s.tokenStore ? { tokenStore: s.tokenStore } : {}),
        ...(intentStore ? { intentStore } : {}),
        ...(cmd.rateLimit
          ? { rateLimit: { ...(cmd.rateLimit as RateLimitOptions), store: s.rateLimitStore } }
          : {}),
      };
      const entry: Entry = { client: new PaymentsClient(options), minted: 0, warnings, reconciled: {} };
      entry.client.on('token', (e) => {
        if (e.action === 'minted') entry.minted++;
      });
      entry.client.on('reconcile', (e) => {
        entry.reconciled[e.outcome] = (entry.reconciled[e.outcome] ?? 0) + 1;
      });
      clients.set(cmd.name, entry);
      return { ok: true };
    }
    case 'get': {
      const entry = clients.get(cmd.name)!;
      const results = await Promise.allSettled(
        Array.from({ length: cmd.n }, () => entry.client.orders.get(cmd.orderId)),
      );
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      return {
        ok: true,
        succeeded: cmd.n - failures.length,
        failures,
        minted: entry.minted,
        warnings: entry.warnings,
      };
    }
    case 'charge': {
      const entry = clients.get(cmd.name)!;
      entry.reconciled = {};
      const charged = await charge(entry, cmd.charges, cmd.concurrency);
      return { ok: true, charged, reconciled: entry.reconciled, warnings: entry.warnings };
    }
    case 'checkout': {
      const entry = clients.get(cmd.name)!;
      entry.reconciled = {};
      const charged = await checkout(entry.client, cmd.carts, cmd.concurrency, cmd.way);
      return { ok: true, charged, reconciled: entry.reconciled, warnings: entry.warnings };
    }
    case 'recover': {
      const { client } = clients.get(cmd.name)!;
      const options = cmd.olderThanMs === undefined ? {} : { olderThanMs: cmd.olderThanMs };
      return { ok: true, recovered: await client.recover(options) };
    }
    case 'dedupe': {
      const s = await stores(cmd.store, cmd);
      const store: DedupeStore | undefined = s.dedupeStore;
      const dedupe = createDeduplicator(store ? { store } : {});
      const handled: string[] = [];
      await Promise.all(
        cmd.deliveries.map(async ({ body, signature }) => {
          const event = verifyWebhook(body, signature, cmd.secret);
          await dedupe.runOnce(event.event_id, async () => {
            await new Promise((r) => setTimeout(r, Math.random() * 5)); // the handler's own work
            handled.push(event.event_id);
          });
        }),
      );
      return { ok: true, handled };
    }
    case 'processOnce': {
      const { dedupeStore } = postgresStores(pgPool(cmd.pgUrl));
      const outcome = await dedupeStore
        .processOnce({ event_id: cmd.eventId }, async (tx) => {
          await tx.query('INSERT INTO partner_effects (event_id, worker) VALUES ($1, $2)', [
            cmd.eventId,
            process.pid,
          ]);
          if (cmd.fail === 'throw') throw new Error('the handler failed after its write');
          if (cmd.fail === 'crash') process.exit(3); // dies mid-transaction
          return process.pid;
        })
        .catch((error: unknown) => ({ error: String(error) }));
      return { ok: true, outcome };
    }
    case 'close':
      await Promise.all(closers.map((close) => close().catch(() => {})));
      return { ok: true };
  }
}

process.on('message', (message: { id: number; cmd: Command }) => {
  run(message.cmd).then(
    (reply) => process.send?.({ id: message.id, reply }),
    (error: unknown) => process.send?.({ id: message.id, reply: { ok: false, error: String(error) } }),
  );
});
process.send?.({ id: 0, reply: { ok: true } });
