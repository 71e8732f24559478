// The agent ledger of `partner-payments mcp` (src/cli/mcp/ledger/), one contract run on its three
// backends: files under a state directory, Redis (the rules in Lua) and PostgreSQL (an advisory
// lock per transaction). The same cases for each: the rolling budget and what is left, a retry
// counting once, another call under a key, the duplicate guard and the person's exception, a
// payment that gives its amount back, pruning; and 15 reservations racing over three connections
// (three ledgers on one store), of which exactly what the budget allows pass. Then the same race
// end to end: 15 concurrent charges over three `mcp` servers sharing one Redis, against the mock,
// never pass the budget (the mock's payments are counted; the control is a budget that allows all).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileLedger } from '../../src/cli/mcp/ledger/files.js';
import type { AgentLedger, ReserveRequest } from '../../src/cli/mcp/ledger/ledger.js';
import { type PgPoolLike, postgresLedger } from '../../src/cli/mcp/ledger/postgres.js';
import { redisLedger } from '../../src/cli/mcp/ledger/redis.js';
import { body, connectStdio, type Recorded, serveRecording } from '../mcp/helpers.js';
import { type Engine, startPostgres, startRedis } from './engines.js';

const DAY = 24 * 3_600_000;
const T0 = Date.UTC(2026, 0, 10);

const request = (over: Partial<ReserveRequest> = {}): ReserveRequest => ({
  kind: 'charge',
  key: 'k',
  amount: 1_000,
  fp: [],
  now: T0,
  budget: { limit: 5_000, windowMs: DAY },
  duplicateWindowMs: 15 * 60_000,
  retainMs: 31 * DAY,
  ...over,
});

interface Backend {
  /** A new ledger on the same store (another connection, as another server has). */
  open(): Promise<AgentLedger>;
  /** Empties the store. */
  clear(): Promise<void>;
  stop(): Promise<void>;
}

const redisClients: { quit(): Promise<unknown> }[] = [];
const pools: { end(): Promise<void> }[] = [];

async function redisBackend(): Promise<Backend> {
  const engine = await startRedis();
  const { createClient } = await import('redis');
  const connect = async () => {
    const client = createClient({ url: engine.url });
    client.on('error', () => {});
    await client.connect();
    redisClients.push(client);
    return client;
  };
  const admin = await connect();
  return {
    open: async () => redisLedger((await connect()) as never, engine.url),
    clear: async () => void (await admin.flushAll()),
    stop: async () => {
      for (const c of redisClients.splice(0)) await c.quit().catch(() => undefined);
      await engine.stop();
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const engine: Engine = await startPostgres();
  const pg = await import('pg');
  const Pool = pg.Pool ?? (pg as unknown as { default: typeof pg }).default.Pool;
  const connect = () => {
    const pool = new Pool({ connectionString: engine.url, max: 4 });
    pool.on('error', () => {}); // an idle client of a stopped engine
    pools.push(pool);
    return pool;
  };
  const admin = connect();
  return {
    open: () => postgresLedger(connect() as unknown as PgPoolLike, engine.url),
    clear: async () => {
      await admin.query('DROP TABLE IF EXISTS partner_payments_agent_ledger');
    },
    stop: async () => {
      for (const p of pools.splice(0)) await p.end().catch(() => undefined);
      await engine.stop();
    },
  };
}

async function filesBackend(): Promise<Backend> {
  let dir = mkdtempSync(join(tmpdir(), 'agent-ledger-'));
  return {
    open: () => fileLedger(dir),
    clear: async () => {
      rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'agent-ledger-'));
    },
    stop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe.each([
  ['files', filesBackend],
  ['Redis', redisBackend],
  ['PostgreSQL', postgresBackend],
])('the agent ledger on %s', (_name, start) => {
  let backend: Backend;
  let ledger: AgentLedger;
  beforeAll(async () => {
    backend = await start();
  }, 60_000);
  afterAll(async () => {
    await backend?.stop();
  });
  const fresh = async () => {
    await backend.clear();
    ledger = await backend.open();
  };

  it('the rolling budget: what would pass it is refused with what is left; a retry counts once', async () => {
    await fresh();
    expect(await ledger.reserve(request({ key: 'a', amount: 3_000 }))).toMatchObject({
      ok: true,
      existing: false,
    });
    expect(await ledger.reserve(request({ key: 'b', amount: 2_500 }))).toEqual({
      ok: false,
      reason: 'budget',
      left: 2_000,
      spent: 3_000,
    });
    // The same call again is no new spending; the key with another amount is another call.
    expect(await ledger.reserve(request({ key: 'a', amount: 3_000, now: T0 + 5 }))).toMatchObject({
      ok: true,
      existing: true,
      entry: { key: 'a', amount: 3_000, at: T0 },
    });
    expect(await ledger.reserve(request({ key: 'a', amount: 2_000 }))).toMatchObject({
      ok: false,
      reason: 'conflict',
    });
    expect(await ledger.reserve(request({ key: 'c', amount: 2_000, now: T0 + 1_000 }))).toMatchObject({
      ok: true,
      existing: false,
    });
    // The window rolls: a day later the first reservation no longer counts (the second does).
    expect(await ledger.reserve(request({ key: 'd', amount: 3_000, now: T0 + DAY }))).toMatchObject({
      ok: true,
    });
    expect(await ledger.reserve(request({ key: 'e', amount: 1, now: T0 + DAY }))).toMatchObject({
      ok: false,
      reason: 'budget',
      left: 0,
    });
  });

  it('a payment seen declined gives its amount back; pending ones are listed for a new read', async () => {
    await fresh();
    await ledger.reserve(request({ key: 'a', amount: 5_000 }));
    await ledger.update('charge', 'a', { order: 'o-1', payment: 'p-1', status: 'pending' });
    expect((await ledger.pending(T0 - DAY)).map((e) => e.payment)).toEqual(['p-1']);
    expect(await ledger.reserve(request({ key: 'b', amount: 1 }))).toMatchObject({
      reason: 'budget',
      left: 0,
    });
    await ledger.observe({ kind: 'charge', by: 'payment', id: 'p-1', status: 'approved' });
    expect(await ledger.pending(T0 - DAY)).toEqual([]);
    expect(await ledger.reserve(request({ key: 'b', amount: 1 }))).toMatchObject({ reason: 'budget' });
    expect(
      await ledger.observe({ kind: 'charge', by: 'payment', id: 'p-1', status: 'declined' }),
    ).toMatchObject({ key: 'a', amount: 5_000, released: true });
    expect(await ledger.reserve(request({ key: 'b', amount: 5_000 }))).toMatchObject({ ok: true });
    // The declined key's retry sends nothing (its payment is known): it takes nothing either.
    expect(await ledger.reserve(request({ key: 'a', amount: 5_000 }))).toMatchObject({
      ok: true,
      existing: true,
      entry: { released: true, status: 'declined' },
    });
    // A released key is reserved afresh by its next call.
    await ledger.update('charge', 'b', { released: true });
    expect(await ledger.reserve(request({ key: 'b', amount: 4_000 }))).toMatchObject({
      ok: true,
      existing: false,
    });
    // Refunds have a budget of their own.
    expect(
      await ledger.reserve(request({ kind: 'refund', key: 'b', amount: 5_000, duplicateWindowMs: 0 })),
    ).toMatchObject({ ok: true, existing: false });
  });

  it('a key found not landed gives back once across servers; landed holds and names its payment; a failed refund gives back', async () => {
    await fresh();
    const other = await backend.open();
    // 'u' ended unknown (no payment known); 'v' too; 'w' has its payment.
    await ledger.reserve(request({ key: 'u', amount: 2_000 }));
    await ledger.reserve(request({ key: 'v', amount: 2_000 }));
    await ledger.reserve(request({ key: 'w', amount: 1_000 }));
    await ledger.update('charge', 'w', { order: 'o-w', payment: 'p-w', status: 'pending' });
    expect(await ledger.reserve(request({ key: 'x', amount: 2_000 }))).toMatchObject({ reason: 'budget' });
    // Two servers read the same verdict at once: one of them gives the 2 000 back.
    const notLanded = { kind: 'charge', by: 'key', id: 'u', status: 'not_landed' } as const;
    const given = await Promise.all([ledger.observe(notLanded), other.observe(notLanded)]);
    expect(given.filter(Boolean)).toEqual([
      expect.objectContaining({ key: 'u', amount: 2_000, released: true }),
    ]);
    expect(await ledger.observe(notLanded)).toBeUndefined();
    expect(await ledger.reserve(request({ key: 'x', amount: 2_000 }))).toMatchObject({ ok: true });
    expect(await ledger.reserve(request({ key: 'y', amount: 1 }))).toMatchObject({
      reason: 'budget',
      left: 0,
    });
    // A landed verdict keeps counting and records the payment (then read again like a pending one);
    // an unknown one says nothing; a verdict on a key whose payment is known changes nothing.
    expect(
      await ledger.observe({
        kind: 'charge',
        by: 'key',
        id: 'v',
        status: 'landed',
        order: 'o-v',
        payment: 'p-v',
      }),
    ).toBeUndefined();
    expect(await other.observe({ kind: 'charge', by: 'key', id: 'v', status: 'not_landed' })).toBeUndefined();
    expect(
      await ledger.observe({ kind: 'charge', by: 'key', id: 'w', status: 'not_landed' }),
    ).toBeUndefined();
    expect((await ledger.pending(0)).map((e) => [e.key, e.payment]).sort()).toEqual([
      ['v', 'p-v'],
      ['w', 'p-w'],
    ]);
    expect(await ledger.reserve(request({ key: 'y', amount: 1 }))).toMatchObject({
      reason: 'budget',
      left: 0,
    });
    // The not-landed key's next call is a new try, reserved afresh within the budget.
    expect(await ledger.reserve(request({ key: 'u', amount: 2_000 }))).toMatchObject({ reason: 'budget' });
    // A refund answered pending, then read failed, gives its amount back, once.
    const refund = { kind: 'refund', duplicateWindowMs: 0, budget: { limit: 500, windowMs: DAY } } as const;
    await ledger.reserve(request({ ...refund, key: 'r', amount: 500 }));
    await ledger.update('refund', 'r', { order: 'o-w', payment: 'p-w', refund: 'rf-1', status: 'pending' });
    expect((await ledger.pending(0)).filter((e) => e.kind === 'refund').map((e) => e.refund)).toEqual([
      'rf-1',
    ]);
    expect(await ledger.reserve(request({ ...refund, key: 's', amount: 500 }))).toMatchObject({
      reason: 'budget',
    });
    const failed = { kind: 'refund', by: 'refund', id: 'rf-1', status: 'failed' } as const;
    expect(await other.observe(failed)).toMatchObject({ key: 'r', amount: 500 });
    expect(await ledger.observe(failed)).toBeUndefined();
    expect(await ledger.reserve(request({ ...refund, key: 's', amount: 500 }))).toMatchObject({ ok: true });
  });

  it('the duplicate guard: the same order under another key within the window, unless the person allowed it', async () => {
    await fresh();
    const fp = ['content:loc|1500|inv-1'];
    await ledger.reserve(request({ key: 'a', fp, budget: undefined }));
    await ledger.update('charge', 'a', { payment: 'p-a', order: 'o-a' });
    const dup = await ledger.reserve(request({ key: 'b', fp, now: T0 + 60_000, budget: undefined }));
    expect(dup).toMatchObject({ ok: false, reason: 'duplicate', entry: { key: 'a', payment: 'p-a', fp } });
    // Controls: another order; the same order past the window; the person's yes for that key.
    expect(
      await ledger.reserve(request({ key: 'c', fp: ['content:loc|1500|inv-2'], budget: undefined })),
    ).toMatchObject({ ok: true });
    expect(
      await ledger.reserve(request({ key: 'd', fp, now: T0 + 16 * 60_000, budget: undefined })),
    ).toMatchObject({ ok: true });
    expect(
      await ledger.reserve(
        request({ key: 'e', fp, now: T0 + 16 * 60_000, budget: undefined, allowDuplicateOf: 'd' }),
      ),
    ).toMatchObject({ ok: true });
    // A charge on the order id matches the earlier charge that made that order.
    expect(
      await ledger.reserve(request({ key: 'f', fp: ['order:o-a'], now: T0 + 60_000, budget: undefined })),
    ).toMatchObject({ ok: false, reason: 'duplicate', entry: { key: 'a' } });
    expect(
      await ledger.reserve(request({ key: 'g', fp: ['order:o-other'], now: T0 + 60_000, budget: undefined })),
    ).toMatchObject({ ok: true });
    // A released charge (declined) is no duplicate.
    await fresh();
    await ledger.reserve(request({ key: 'a', fp }));
    await ledger.update('charge', 'a', { released: true });
    expect(await ledger.reserve(request({ key: 'b', fp }))).toMatchObject({ ok: true });
  });

  it('prunes what is older than it keeps', async () => {
    await fresh();
    await ledger.reserve(request({ key: 'old', amount: 5_000 }));
    const later = T0 + 32 * DAY;
    expect(await ledger.reserve(request({ key: 'new', amount: 5_000, now: later }))).toMatchObject({
      ok: true,
    });
    expect(await ledger.pending(0)).toEqual([]);
    expect(await ledger.reserve(request({ key: 'old', amount: 1, now: later }))).toMatchObject({
      reason: 'budget',
    });
  });

  it('15 reservations racing over three connections: exactly the budget passes', async () => {
    await fresh();
    const ledgers = [ledger, await backend.open(), await backend.open()];
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        (ledgers[i % 3] as AgentLedger).reserve(request({ key: `race-${i}`, amount: 1_000 })),
      ),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(5);
    expect(answers.filter((a) => !a.ok && a.reason === 'budget')).toHaveLength(10);
  }, 30_000);
});

describe('the files ledger lock', () => {
  it('a lock left by a process that is gone is taken over; one held by a live process is waited on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lock-'));
    try {
      const ledger = await fileLedger(dir);
      const lock = join(dir, 'agent', 'agent-ledger.lock');
      mkdirSync(join(dir, 'agent'), { recursive: true });
      // A pid that was alive and is not any more (a server killed inside the lock).
      const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
        encoding: 'utf8',
      }).stdout;
      writeFileSync(lock, `${gone} stale-token`);
      expect(await ledger.reserve(request({ key: 'after-crash' }))).toMatchObject({ ok: true });
      expect(existsSync(lock)).toBe(false);
      // A live holder (this process): the call waits until the lock is let go.
      writeFileSync(lock, `${process.pid} live-token`);
      let done = false;
      const waiting = ledger.reserve(request({ key: 'waits' })).then((a) => {
        done = true;
        return a;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      rmSync(lock);
      expect(await waiting).toMatchObject({ ok: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('15 concurrent charges over three mcp servers sharing one Redis', () => {
  let served: Recorded;
  let engine: Engine;
  beforeAll(async () => {
    [served, engine] = await Promise.all([serveRecording(), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await engine?.stop();
  });

  it('never pass the budget together; control: a budget for all lets all through', async () => {
    const location = served.mock.fixtures.partners[0]!.locations.payments;
    const charges = async (budget: number, tag: string, count: number) => {
      const flags = ['--allow-writes', '--intent-store', engine.url, '--budget-cents', String(budget)];
      const servers = await Promise.all(Array.from({ length: count }, () => connectStdio(served, flags)));
      try {
        const before = served.posts('/payments');
        const results = await Promise.all(
          Array.from({ length: 15 }, (_, i) =>
            (servers[i % count] as (typeof servers)[number]).call('charge', {
              idempotency_key: `${tag}-${i}`,
              order: { location_id: location, total_cents: 1_000, external_reference: `${tag}-${i}` },
            }),
          ),
        );
        return {
          sent: results.filter((r) => !r.isError).length,
          refused: results.filter((r) => body(r).error === 'budget_exceeded').length,
          payments: served.posts('/payments') - before,
        };
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    };
    expect(await charges(5_000, 'race', 3)).toEqual({ sent: 5, refused: 10, payments: 5 });
    // Control: the same 15 at once through one server whose budget allows them all (on the same
    // store, which still holds the 5 000 above) all reach the mock.
    expect(await charges(20_000, 'all', 1)).toEqual({ sent: 15, refused: 0, payments: 15 });
  }, 60_000);
});
