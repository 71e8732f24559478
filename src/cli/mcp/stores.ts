// `--intent-store URL`: the client's intent store in Redis or Postgres (the `partner-payments/stores`
// backends), so that a key outlives this process and is shared with other servers and clients. The
// engine's client (redis, pg) is the partner's to install: loaded only here, only when asked for.
import type { IntentStore } from '../../index.js';
import { POSTGRES_DDL, postgresStores, redisStores } from '../../stores/index.js';

/** An intent store and how to let go of its connection. */
export interface OpenedStore {
  intentStore: IntentStore;
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
      close: async () => void (await client.quit().catch(() => undefined)),
    };
  }
  const pg = await load<typeof import('pg')>('pg', where);
  const Pool = pg.Pool ?? (pg as unknown as { default: typeof pg }).default.Pool;
  const pool = new Pool({ connectionString: url.href, max: 4 });
  try {
    // The tables are created if absent (CREATE ... IF NOT EXISTS): docs/fleets.md.
    await pool.query(POSTGRES_DDL);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`could not use the intent store at ${where}: ${reason(error)}`);
  }
  return { intentStore: postgresStores(pool).intentStore, close: () => pool.end() };
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
