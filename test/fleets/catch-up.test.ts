// handler.catchUp in a fleet (api.md 23): three processes catching up at once over shared Redis (and
// PostgreSQL) on 30 payments a fourth made, with no webhook delivered: every transition runs exactly
// once in total; a process SIGKILLed mid-pass loses none (the next pass runs what it left).
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedMock, serveMock } from '../helpers/loopback-mock.js';
import type { CatchUpCommand, CatchUpWorkerSetup } from './catch-up-worker.js';
import { type Engine, startPostgres, startRedis } from './engines.js';

const WORKER = fileURLToPath(new URL('./catch-up-worker.ts', import.meta.url));

interface Worker {
  child: ChildProcess;
  call(cmd: CatchUpCommand): Promise<unknown>;
}

async function startWorker(setup: CatchUpWorkerSetup): Promise<Worker> {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(m.error));
    else p?.resolve(m.result);
  });
  child.on('exit', (code, signal) => {
    for (const p of pending.values()) p.reject(new Error(`worker exited (${signal ?? code})`));
    pending.clear();
  });
  const send = (message: object) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, ...message }, (error) => {
        if (error) reject(error);
      });
    });
  await send({ setup });
  return { child, call: (cmd) => send({ cmd }) };
}

let served: ServedMock;
let dir: string;
beforeAll(async () => {
  served = await serveMock({ rateLimits: false, paymentTtlMs: 30 * 24 * 3_600_000 });
  dir = mkdtempSync(join(tmpdir(), 'pp-catch-up-'));
});
afterAll(async () => {
  await served?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The transitions in the shared log, each with how many times it ran. */
function runsIn(log: string): Map<string, number> {
  const runs = new Map<string, number>();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const transition = line.split(' ').slice(0, 2).join(' ');
    runs.set(transition, (runs.get(transition) ?? 0) + 1);
  }
  return runs;
}

describe.each([
  ['Redis', startRedis],
  ['PostgreSQL', startPostgres],
] as const)('catch-up fleet on shared %s', (engineName, start) => {
  let engine: Engine;
  let workers: Worker[] = [];
  let log: string;
  const partner = () => served.mock.fixtures.partners[0]!;

  beforeAll(async () => {
    engine = await start();
    log = join(dir, `${engineName}.log`);
    writeFileSync(log, '');
    const setup: CatchUpWorkerSetup = {
      clientOptions: served.clientOptions(),
      engine: engineName === 'Redis' ? 'redis' : 'postgres',
      url: engine.url,
      log,
      partnerId: partner().partnerId,
    };
    workers = await Promise.all([0, 1, 2, 3].map(() => startWorker(setup)));
  }, 120_000);
  afterAll(async () => {
    const alive = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    await Promise.all(alive.map((w) => w.call({ op: 'close' }).catch(() => {})));
    for (const w of alive) w.child.kill();
    await engine?.stop();
  });

  /** The fourth process charges 30 times; 20 approved, 5 cancelled (no callback), 5 left pending. */
  async function thirtyPayments(batch: string) {
    const keys = Array.from({ length: 30 }, (_, i) => `fleet-${engineName}-${batch}-${i}`);
    const ids = (await workers[3]!.call({
      op: 'charge',
      keys,
      locationId: partner().locations.payments,
    })) as string[];
    ids.slice(0, 20).forEach((id) => {
      served.mock.processor.approve(id);
    });
    ids.slice(20, 25).forEach((id) => {
      served.mock.processor.cancel(id);
    });
    return ids;
  }

  it('three processes at once run each of 20 transitions exactly once in total', async () => {
    const ids = await thirtyPayments('a');
    const results = (await Promise.all(workers.slice(0, 3).map((w) => w.call({ op: 'catchUp' })))) as Array<{
      delivered: number;
      failed: number;
    }>;
    expect(results.reduce((n, r) => n + r.delivered, 0)).toBe(20);
    expect(results.every((r) => r.failed === 0)).toBe(true);
    const runs = runsIn(log);
    expect([...runs.keys()].sort()).toEqual(
      ids
        .slice(0, 20)
        .map((id) => `payment.approved ${id}`)
        .sort(),
    );
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    // Every process again: nothing left to run.
    const again = (await Promise.all(workers.slice(0, 3).map((w) => w.call({ op: 'catchUp' })))) as Array<{
      delivered: number;
    }>;
    expect(again.reduce((n, r) => n + r.delivered, 0)).toBe(0);
  }, 60_000);

  it('a process SIGKILLed mid-pass loses no transition: the next pass runs what it left, once', async () => {
    writeFileSync(log, '');
    const ids = await thirtyPayments('b');
    const victim = workers[0]!;
    const died = victim.call({ op: 'catchUp', dieAtRun: 2 }).then(
      () => false,
      () => true,
    );
    const others = Promise.all(workers.slice(1, 3).map((w) => w.call({ op: 'catchUp' })));
    expect(await died).toBe(true);
    expect(victim.child.signalCode).toBe('SIGKILL');
    await others;
    // The victim's lease (2 s here) lapses; the next pass runs what it held.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await workers[1]!.call({ op: 'catchUp' });
    const runs = runsIn(log);
    expect([...runs.keys()].sort()).toEqual(
      ids
        .slice(0, 20)
        .map((id) => `payment.approved ${id}`)
        .sort(),
    );
    expect([...runs.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  }, 60_000);
});
