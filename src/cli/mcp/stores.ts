// `--intent-store URL`: the client's intent store in Redis or Postgres (the `partner-payments/stores`
// backends), so that a key outlives this process and is shared with other servers and clients. The
// engine's client (redis, pg) is the partner's to install: loaded only here, only when asked for.
import type { IntentStore } from '../../index.js';
import { POSTGRES_DDL, postgresStores, redisStores } from '../../stores/index.js';
import type { AgentLedger } from './ledger/ledger.js';
import { type PgPoolLike, postgresLedger } from './ledger/postgres.js';
import { redisLedger } from './ledger/redis.js';

/** An intent store, the agent ledger beside it (docs/agents.md), and how to let go of their connection. */
export interface OpenedStore {
  intentStore: IntentStore;
  /** The budgets and the duplicate guard, on the same engine and connection as the intents. */
  ledger: AgentLedger;
  close(): Promise<void>;
}

/** Why the store could not be opened, for the bin to print (exit 3); never the URL's password. */
export class StoreError extends Error {}

/** Connects to the store at `url` (redis://, rediss://, postgres://, postgresql://). */
export async function openIntentStore(url: URL): Promise<OpenedStore> {
  const where = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  if (url.protocol === 'redis:' || url.protocol === 'rediss:') {
    const redis = await load<typeof import('redis')>('redis', where);
    const client = redis.createClient({ url: url.href });
    client.on('error', () => {}); // reconnects by itself; a failing call reports its own error
    try {
      await client.connect();
    } catch (error) {
      throw new StoreError(`could not connect to the intent store at ${where}: ${reason(error)}`);
    }
    return {
      intentStore: redisStores(client as never).intentStore,
      ledger: redisLedger(client as never, where),
      close: async () => void (await client.quit().catch(() => undefined)),
    };
  }
  const pg = await load<typeof import('pg')>('pg', where);
  const Pool = pg.Pool ?? (pg as unknown as { default: typeof pg }).default.Pool;
  const pool = new Pool({ connectionString: url.href, max: 4 });
  let ledger: AgentLedger;
  try {
    // The tables are created if absent (CREATE ... IF NOT EXISTS): docs/fleets.md.
    await pool.query(POSTGRES_DDL);
    ledger = await postgresLedger(pool as unknown as PgPoolLike, where);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`could not use the intent store at ${where}: ${reason(error)}`);
  }
  return { intentStore: postgresStores(pool).intentStore, ledger, close: () => pool.end() };
}

async function load<T>(name: string, where: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch {
    throw new StoreError(
      `--intent-store ${where} needs the ${name} package: npm install ${name} (beside partner-payments)`,
    );
  }
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // A driver's message may quote the connection string: never its password.
  return text.replace(/\/\/[^@\s/]*@/g, '//[REDACTED]@');
}

/**
 * `store`, with a promise of its `put`s under way. The client answers a payment or refund as soon as
 * the service does and records it as landed behind the answer; a server killed in between (an MCP
 * client ends its server with a signal, often right after the last result) would leave the key
 * open, and a refund's rerun then cannot be matched (the service lists no refunds of a payment).
 * So each tool result waits for {@link TrackedStore.written}: milliseconds, for an answer that holds.
 */
export function trackWrites(store: IntentStore): TrackedStore {
  const pending = new Set<Promise<unknown>>();
  const intentStore = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'put') return Reflect.get(target, prop, receiver);
      return (...args: Parameters<IntentStore['put']>) => {
        const put = target.put(...args);
        // The client handles the put's failure itself; this copy only marks when it is over.
        const over = put.then(
          () => undefined,
          () => undefined,
        );
        pending.add(over);
        void over.then(() => pending.delete(over));
        return put;
      };
    },
  });
  return {
    intentStore,
    written: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** What {@link trackWrites} returns. */
export interface TrackedStore {
  intentStore: IntentStore;
  /** Resolves once no `put` of the store is under way. */
  written(): Promise<void>;
}
