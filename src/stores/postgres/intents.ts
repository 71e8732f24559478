// The intent store on Postgres (`postgresStores(...).intentStore`): one row per idempotency key with
// its lease, a unique index that keeps one key per payment or refund, and refunds seen in events.
import type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  MadeResource,
  RefundSighting,
} from '../../core/stores/intent-store.js';
import { madeOf } from '../../core/stores/intent-store.js';
import type { Query } from './pool.js';

/** The intent tables, part of POSTGRES_DDL. */
export const INTENTS_DDL = `CREATE TABLE IF NOT EXISTS partner_payments_intents (
  key text PRIMARY KEY,
  order_id text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  record text NOT NULL,
  result_id text,
  lease_owner text,
  lease_until bigint NOT NULL DEFAULT 0,
  updated_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS partner_payments_intents_order ON partner_payments_intents (order_id);
CREATE UNIQUE INDEX IF NOT EXISTS partner_payments_intents_result
  ON partner_payments_intents (order_id, result_id) WHERE result_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS partner_payments_refunds_seen (
  refund_id text PRIMARY KEY,
  payment_id text NOT NULL,
  sighting text NOT NULL
);
CREATE INDEX IF NOT EXISTS partner_payments_refunds_seen_payment ON partner_payments_refunds_seen (payment_id);
CREATE INDEX IF NOT EXISTS partner_payments_intents_updated ON partner_payments_intents (updated_at);
CREATE TABLE IF NOT EXISTS partner_payments_orders_made (
  order_id text PRIMARY KEY,
  created_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS partner_payments_orders_made_created ON partner_payments_orders_made (created_at);`;

const INSERT = `INSERT INTO partner_payments_intents
  (key, order_id, fingerprint, state, record, lease_owner, lease_until, updated_at)
VALUES ($1, $2, $3, 'open', $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING RETURNING key`;

const TAKE = `UPDATE partner_payments_intents SET lease_owner = $2, lease_until = $3
WHERE key = $1 AND fingerprint = $4 AND state <> 'landed'
  AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until <= $5)
RETURNING record`;

const PUT = `UPDATE partner_payments_intents SET record = $3, state = $4, result_id = $5, updated_at = $6,
  lease_owner = CASE WHEN $7 THEN NULL ELSE lease_owner END,
  lease_until = CASE WHEN $7 THEN 0 ELSE lease_until END
WHERE key = $1 AND lease_owner = $2`;

/** The intent store over a query function that has made sure the tables exist (see index.ts). */
export function postgresIntentStore(query: Query): IntentStore {
  const parse = (row: unknown) => JSON.parse((row as { record: string }).record) as IntentRecord;
  let noted = 0;
  const store: IntentStore = {
    durable: true,
    async begin(draft, owner, leaseMs): Promise<IntentBegin> {
      for (;;) {
        const now = Date.now();
        const until = now + Math.ceil(leaseMs);
        const inserted = await query(INSERT, [
          draft.key,
          draft.orderId,
          draft.fingerprint,
          JSON.stringify(draft),
          owner,
          until,
          now,
        ]);
        if (inserted.rowCount === 1) return { status: 'acquired', record: { ...draft } };
        const taken = await query(TAKE, [draft.key, owner, until, draft.fingerprint, now]);
        if (taken.rowCount === 1) return { status: 'acquired', record: parse(taken.rows[0]) };
        const { rows } = await query(
          'SELECT fingerprint, state, record, lease_until FROM partner_payments_intents WHERE key = $1',
          [draft.key],
        );
        const row = rows[0] as
          | { fingerprint: string; state: string; record: string; lease_until: string }
          | undefined;
        if (!row) continue; // deleted in between: insert again
        if (row.fingerprint !== draft.fingerprint) return { status: 'conflict', record: parse(row) };
        if (row.state === 'landed') return { status: 'done', record: parse(row) };
        const leased = Number(row.lease_until);
        if (leased > Date.now()) return { status: 'busy', until: leased };
      }
    },
    async put(record, owner, release) {
      try {
        const args = [
          record.key,
          owner,
          JSON.stringify(record),
          record.state,
          record.resultId ?? null,
          record.updatedAt,
          release,
        ];
        return (await query(PUT, args)).rowCount === 1 ? 'ok' : 'lost';
      } catch (error) {
        if ((error as { code?: string }).code === '23505') return 'taken'; // unique_violation
        throw error;
      }
    },
    async renew(intent, owner, leaseMs) {
      const { rowCount } = await query(
        'UPDATE partner_payments_intents SET lease_until = $3 WHERE key = $1 AND lease_owner = $2',
        [intent.key, owner, Date.now() + Math.ceil(leaseMs)],
      );
      return rowCount === 1;
    },
    async get(key) {
      const { rows } = await query('SELECT record FROM partner_payments_intents WHERE key = $1', [key]);
      return rows[0] === undefined ? undefined : parse(rows[0]);
    },
    async forOrder(orderId) {
      const { rows } = await query('SELECT record FROM partner_payments_intents WHERE order_id = $1', [
        orderId,
      ]);
      return rows.map(parse);
    },
    async unfinished(olderThanMs) {
      const now = Date.now();
      const { rows } = await query(
        `SELECT record FROM partner_payments_intents
WHERE state IN ('open', 'unknown') AND (lease_owner IS NULL OR lease_until <= $1) AND updated_at <= $2`,
        [now, now - olderThanMs],
      );
      return rows.map(parse);
    },
    async noteRefund(sighting) {
      await query(
        `INSERT INTO partner_payments_refunds_seen (refund_id, payment_id, sighting) VALUES ($1, $2, $3)
ON CONFLICT (refund_id) DO UPDATE SET sighting = EXCLUDED.sighting`,
        [sighting.refundId, sighting.paymentId, JSON.stringify(sighting)],
      );
    },
    async refundsOf(paymentId) {
      const { rows } = await query(
        'SELECT sighting FROM partner_payments_refunds_seen WHERE payment_id = $1',
        [paymentId],
      );
      return rows.map((r) => JSON.parse((r as { sighting: string }).sighting) as RefundSighting);
    },
    async noteOrder(order) {
      // Every 256 notes, those older than 30 days go (the intents have their own retention).
      if (++noted % 256 === 0)
        await query('DELETE FROM partner_payments_orders_made WHERE created_at < $1', [
          Date.now() - 30 * 24 * 3_600_000,
        ]);
      await query(
        `INSERT INTO partner_payments_orders_made (order_id, created_at) VALUES ($1, $2)
ON CONFLICT (order_id) DO NOTHING`,
        [order.orderId, order.createdAt],
      );
    },
    async made({ from, to }) {
      const orders = await query(
        'SELECT order_id, created_at FROM partner_payments_orders_made WHERE created_at BETWEEN $1 AND $2',
        [from, to],
      );
      // A landed intent was last written at or after its creation: the index on updated_at narrows.
      const intents = await query(
        "SELECT record FROM partner_payments_intents WHERE state = 'landed' AND updated_at >= $1",
        [from],
      );
      const found: MadeResource[] = orders.rows.map((r) => {
        const row = r as { order_id: string; created_at: string };
        return { kind: 'order', orderId: row.order_id, createdAt: Number(row.created_at) };
      });
      for (const row of intents.rows) {
        const m = madeOf(parse(row));
        if (m && m.createdAt >= from && m.createdAt <= to) found.push(m);
      }
      return found;
    },
  };
  return store;
}
