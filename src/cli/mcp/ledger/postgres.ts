// The agent ledger in PostgreSQL (./ledger.ts), for servers sharing `--intent-store postgres://...`:
// one table of reservations, and every change one transaction that first takes a transaction-level
// advisory lock (pg_advisory_xact_lock: released by the COMMIT or ROLLBACK, or by the server when a
// connection dies), so that the check of the budget and the duplicate guard and the reservation are
// one step however many servers race; the rules are ledger.ts's own.
import {
  type AgentLedger,
  decide,
  type Entry,
  type EntryPatch,
  type LedgerKind,
  observeIn,
  patchEntry,
  pendingIn,
  type ReserveAnswer,
  type ReserveRequest,
  type Sighting,
} from './ledger.js';

/** The table, created when absent. */
export const AGENT_LEDGER_DDL = `CREATE TABLE IF NOT EXISTS partner_payments_agent_ledger (
  id text PRIMARY KEY,
  at bigint NOT NULL,
  body jsonb NOT NULL
)`;

/** The lock every change takes (one per database): a constant of its own, not shared with the stores. */
const LOCK = 'SELECT pg_advisory_xact_lock(hashtext($1))';

interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The pg Pool stores.ts opened. */
export interface PgPoolLike extends Queryable {
  connect(): Promise<Queryable & { release(error?: Error): void }>;
}

const idOf = (e: { kind: LedgerKind; key: string }) => `${e.kind}:${e.key}`;

/** The ledger on `pool`, whose table is created now. */
export async function postgresLedger(pool: PgPoolLike, where: string): Promise<AgentLedger> {
  await pool.query(AGENT_LEDGER_DDL);

  /** Runs `change` on every entry in one locked transaction; writes what it changed or dropped. */
  async function transact<T>(change: (entries: Entry[]) => T): Promise<T> {
    const db = await pool.connect();
    let failed: Error | undefined;
    try {
      await db.query('BEGIN');
      await db.query(LOCK, ['partner_payments_agent_ledger']);
      const { rows } = await db.query('SELECT body FROM partner_payments_agent_ledger');
      const entries = rows.map((r) => r.body as Entry);
      const before = new Map(entries.map((e) => [idOf(e), JSON.stringify(e)]));
      const result = change(entries);
      const after = new Set<string>();
      for (const e of entries) {
        const id = idOf(e);
        after.add(id);
        const text = JSON.stringify(e);
        if (before.get(id) === text) continue;
        await db.query(
          'INSERT INTO partner_payments_agent_ledger (id, at, body) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at, body = EXCLUDED.body',
          [id, e.at, text],
        );
      }
      const gone = [...before.keys()].filter((id) => !after.has(id));
      if (gone.length > 0) {
        await db.query('DELETE FROM partner_payments_agent_ledger WHERE id = ANY($1)', [gone]);
      }
      await db.query('COMMIT');
      return result;
    } catch (error) {
      failed = error as Error;
      await db.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      db.release(failed);
    }
  }

  return {
    where: `PostgreSQL at ${where}`,
    reserve: (request: ReserveRequest) => transact<ReserveAnswer>((entries) => decide(entries, request)),
    update: (kind: LedgerKind, key: string, patch: EntryPatch) =>
      transact((entries) => void patchEntry(entries, kind, key, patch)),
    observe: (seen: Sighting) => transact((entries) => observeIn(entries, seen).given),
    async pending(since: number) {
      const { rows } = await pool.query('SELECT body FROM partner_payments_agent_ledger WHERE at >= $1', [
        since,
      ]);
      return pendingIn(
        rows.map((r) => r.body as Entry),
        since,
      );
    },
    close: async () => undefined,
  };
}
