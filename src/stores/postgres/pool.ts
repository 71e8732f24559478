// How the Postgres stores reach Postgres: the pool they accept (node-postgres or alike, duck-typed)
// and a transaction on one of its clients. Every store of this folder queries through these.

/**
 * A client that runs parameterised queries: a node-postgres `PoolClient`, or anything alike.
 *
 * @example
 * const tx: PgQueryable = await pool.connect();
 */
export interface PgQueryable {
  /** Runs one parameterised statement (`$1`, `$2`, ...) and resolves its rows. */
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * A pool {@link postgresStores} accepts: a node-postgres `Pool`, or anything with `query` and a
 * `connect` that lends a client to release.
 *
 * @example
 * import pg from 'pg';
 * const pool: PgPoolLike = new pg.Pool({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 2_000 });
 */
export interface PgPoolLike extends PgQueryable {
  /** Lends a client from the pool, for one transaction; the store calls `release` when done. */
  connect(): Promise<
    PgQueryable & {
      /** Returns the client to the pool (an error or `true` destroys it instead). */
      release(error?: Error | boolean): void;
    }
  >;
}

/** Runs one statement on the pool, the tables made sure of first (see index.ts). */
export type Query = (
  text: string,
  values: unknown[],
) => Promise<{ rows: unknown[]; rowCount: number | null }>;

/** Runs `work` in a transaction on a pooled client: commit when it returns, roll back when it throws. */
export async function transaction<T>(pool: PgPoolLike, work: (tx: PgQueryable) => Promise<T>): Promise<T> {
  const tx = await pool.connect();
  let broken: Error | undefined;
  try {
    await tx.query('BEGIN');
    const result = await work(tx);
    await tx.query('COMMIT');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    tx.release(broken); // a client whose rollback failed is discarded, not reused
  }
}
