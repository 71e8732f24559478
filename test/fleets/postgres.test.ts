// Across processes, on a real PostgreSQL 15 (a throwaway cluster): one token for the fleet, each
// webhook handled once by 4 receivers, and processOnce effects that survive a throw and a crash.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_DDL, postgresStores } from '../../src/stores/index.js';
import { resetCounts } from './counting-mock.js';
import { makeDeliveries, runsPerEvent, SECRET } from './deliveries.js';
import { startPostgres } from './engines.js';
import { useFleet } from './suite.js';

const suite = useFleet(4, startPostgres, { rateLimits: false });
let pool: pg.Pool;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: suite.engine.url });
  await pool.query('CREATE TABLE partner_effects (event_id text NOT NULL, worker int NOT NULL)');
});
afterAll(() => pool?.end());

describe('postgresStores across 4 processes', () => {
  it('creates its tables once when 4 processes start at the same moment, and makes 1 token request for 4 x 50 calls', async () => {
    const { fleet, m } = suite;
    const { options, orderId } = await m.fleetClient();
    await fleet.all({ op: 'client', name: 'pg', store: 'postgres', pgUrl: suite.engine.url, options });
    resetCounts(m);
    const replies = await fleet.all({ op: 'get', name: 'pg', orderId, n: 50 });
    expect(replies.map((r) => r.failures)).toEqual([[], [], [], []]);
    expect(m.counts.token).toBe(1);
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'partner_payments_%'",
    );
    // tokens, webhook events, intents, the refunds seen and the orders made (POSTGRES_DDL)
    expect(rows[0].n).toBe(5);
  });

  it('runs each handler exactly once per event when 4 receivers get the same 100 events, shuffled and duplicated', async () => {
    const { fleet } = suite;
    const { ids, perReceiver } = makeDeliveries(fleet.size);
    const replies = await fleet.all((i) => ({
      op: 'dedupe',
      store: 'postgres',
      pgUrl: suite.engine.url,
      secret: SECRET,
      deliveries: perReceiver[i]!,
    }));
    expect(replies.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
    const runs = runsPerEvent(
      ids,
      replies.map((r) => r.handled ?? []),
    );
    expect([...new Set(runs.values())]).toEqual([1]);
  });

  it('processOnce: a write made before a throw, and one made before a crash, exist exactly once after redelivery', async () => {
    const { fleet } = suite;
    const eventId = 'evt_process_once_1';
    const thrown = await fleet.send(0, {
      op: 'processOnce',
      pgUrl: suite.engine.url,
      eventId,
      fail: 'throw',
    });
    expect(thrown.outcome).toEqual({ error: 'Error: the handler failed after its write' });
    // Worker 1 dies inside the transaction, after its write.
    await expect(
      fleet.send(1, { op: 'processOnce', pgUrl: suite.engine.url, eventId, fail: 'crash' }),
    ).rejects.toThrow(/exited with 3/);
    // The redelivery reaches the two remaining receivers at once.
    const [a, b] = await Promise.all([
      fleet.send(2, { op: 'processOnce', pgUrl: suite.engine.url, eventId }),
      fleet.send(3, { op: 'processOnce', pgUrl: suite.engine.url, eventId }),
    ]);
    const outcomes = [a!.outcome, b!.outcome] as { processed: boolean }[];
    expect(outcomes.map((o) => o.processed).sort()).toEqual([false, true]);
    const writes = async (id: string) =>
      (await pool.query('SELECT worker FROM partner_effects WHERE event_id = $1', [id])).rows.length;
    expect(await writes(eventId)).toBe(1);
    // The control: the same count, after a throw and a redelivery handled by a handler that writes on
    // its own connection (outside processOnce's transaction), sees the thrown attempt's write too.
    const control = 'evt_process_once_control';
    const { dedupeStore } = postgresStores(pool);
    const write = () =>
      pool.query('INSERT INTO partner_effects (event_id, worker) VALUES ($1, 0)', [control]);
    const failed = dedupeStore.processOnce({ event_id: control }, async () => {
      await write();
      throw new Error('the handler failed after its write');
    });
    await expect(failed).rejects.toThrow(/after its write/);
    await dedupeStore.processOnce({ event_id: control }, write);
    expect(await writes(control)).toBe(2);
  });

  it('processOnce resolves the handler result, and { processed: false } for a processed event (in process)', async () => {
    const { dedupeStore } = postgresStores(pool);
    await expect(dedupeStore.processOnce('evt_local', async () => 42)).resolves.toEqual({
      processed: true,
      result: 42,
    });
    await expect(dedupeStore.processOnce('evt_local', async () => 43)).resolves.toEqual({ processed: false });
    expect(POSTGRES_DDL).toMatch(/CREATE TABLE IF NOT EXISTS partner_payments_webhook_events/);
  });
});
