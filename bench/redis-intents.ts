/**
 * One Redis round trip on the caller's path (issue 42): keyed `payments.create` with the intent store
 * on a local Redis (redis-server on loopback), against the same resource without the intent layer,
 * beside three floors: one Redis round trip per call (`SET key NX PX`, then the unkeyed call), the
 * issue's floor; and one write before the send and one behind the answer (`SET NX` with the draft,
 * the unkeyed call, then `SET XX` with the result, not awaited): what any Redis-backed layer that
 * records a key's result must at least pay; and the same two writes each as a one-line script
 * (`EVALSHA` of that `SET`): what a store whose writes are conditional, and so run as scripts on
 * Redis, must at least pay, with no work in its scripts and no SDK around them. Beside them, the
 * SDK's runner over stand-in stores making each of the last two floors' writes. The goal: the keyed
 * figure within 10 points of the first floor's; the restatement proposed in the notes (within
 * 10 points of the SDK over the one-line scripts' stand-in) is checked beside it. Alternating rounds
 * on the same loopback server, at concurrency 1 and 32.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { startRedis } from '../test/fleets/engines.js';
import { paymentsOver } from './key-floor.js';
import type { Comparison } from './report.js';
import { sdk, stores } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { alternate, median, summarize, throughput } from './stats.js';

const PARAMS = { method: 'card', amount_cents: 12_500 } as const;

export async function benchRedisIntents(options: {
  perRound: number;
  rounds: number;
}): Promise<Comparison[]> {
  const server = await startBenchServer();
  const engine = await startRedis();
  const redis = await createClient({ url: engine.url })
    .on('error', () => {})
    .connect();
  const base = { accessToken: 'bench-token', baseUrl: server.url };
  const client = new sdk.PaymentsClient(base);
  const plain = paymentsOver(client);
  const intentStore = stores.redisStores(redis).intentStore;
  const onRedis = new sdk.PaymentsClient({ ...base, intentStore });
  // The floors' two writes (a new key's draft with NX before the send, its record with XX behind the
  // answer, not awaited): as plain SETs, or each as a one-line script loaded once (EVALSHA, as the
  // store runs its own).
  type Write = (key: string, json: string, mode: 'NX' | 'XX') => Promise<unknown>;
  const load = async (mode: 'NX' | 'XX') =>
    String(
      await redis.sendCommand([
        'SCRIPT',
        'LOAD',
        `return redis.call('SET', KEYS[1], ARGV[1], '${mode}', 'PX', ARGV[2])`,
      ]),
    );
  const sha = { NX: await load('NX'), XX: await load('XX') };
  const bySet: Write = (key, json, mode) => redis.sendCommand(['SET', key, json, mode, 'PX', '60000']);
  const byScript: Write = (key, json, mode) =>
    redis.sendCommand(['EVALSHA', sha[mode], '1', key, json, '60000']);
  /** A floor: the two writes around the unkeyed call, no SDK. */
  const twoWrites = (write: Write) => async () => {
    const key = `bench-floor:${randomUUID()}`;
    await write(key, JSON.stringify({ key, ...PARAMS }), 'NX');
    const payment = await plain.create(ORDER_ID, PARAMS);
    void write(key, JSON.stringify(payment), 'XX').catch(() => {});
    return payment;
  };
  /**
   * The SDK's runner over a stand-in store making just the two writes: not a store (no lease, index
   * or result uniqueness); against its floor it shows what the runner costs, against the keyed
   * figure what the store costs.
   */
  const standIn = (write: Write) => {
    const over = new sdk.PaymentsClient({
      ...base,
      intentStore: {
        ...intentStore,
        async begin(draft) {
          await write(`bench-sets:${draft.key}`, JSON.stringify(draft), 'NX');
          return { status: 'acquired', record: draft };
        },
        put(record) {
          void write(`bench-sets:${record.key}`, JSON.stringify(record), 'XX').catch(() => {});
          return Promise.resolve('ok');
        },
      },
    });
    return () => over.payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() });
  };
  const { perRound, rounds } = options;
  try {
    const results: Comparison[] = [];
    for (const concurrency of [1, 32]) {
      // Each round's Redis CPU time a call (the server's own, from INFO cpu), per contender.
      const redisUs: Record<string, number[]> = {};
      const run = (name: string, call: () => Promise<unknown>) => {
        const spent: number[] = [];
        redisUs[name] = spent;
        return async () => {
          const before = serverCpuUs(String(await redis.sendCommand(['INFO', 'cpu'])));
          const sample = await throughput(call, perRound, concurrency);
          const after = serverCpuUs(String(await redis.sendCommand(['INFO', 'cpu'])));
          spent.push((after - before) / perRound);
          return sample;
        };
      };
      const rates = await alternate(
        {
          plain: run('plain', () => plain.create(ORDER_ID, PARAMS)),
          keyed: run('keyed', () =>
            onRedis.payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }),
          ),
          floor: run('floor', async () => {
            await redis.sendCommand(['SET', `bench-floor:${randomUUID()}`, '1', 'NX', 'PX', '60000']);
            return plain.create(ORDER_ID, PARAMS);
          }),
          written: run('written', twoWrites(bySet)),
          scripts: run('scripts', twoWrites(byScript)),
          runner: run('runner', standIn(bySet)),
          runnerScripts: run('runnerScripts', standIn(byScript)),
        },
        rounds,
      );
      const figure = `\`payments.create\` with a key, concurrency ${concurrency}`;
      const row = (what: string, contender: keyof typeof rates): Comparison => ({
        figure: `${figure}${what}; Redis CPU a call ${median(redisUs[contender]!).toFixed(1)} µs`,
        unit: 'req/s',
        sdk: summarize(rates[contender]),
        baselineName: 'the same resource without the intent layer (0.2.0)',
        baseline: summarize(rates.plain),
        goal: 0,
        requests: perRound * rounds,
      });
      const floor = row(
        ': one Redis round trip (`SET NX`) and the unkeyed call (the floor of the figure above)',
        'floor',
      );
      const written = row(
        ': a write before the send (`SET NX`) and one behind the answer (`SET XX`), the unkeyed call between (a floor that records results)',
        'written',
      );
      const scriptedRow = row(
        ': the two writes of the floor above, each as a one-line script (`EVALSHA` of the `SET`; a floor for a store whose writes run as scripts)',
        'scripts',
      );
      const runner = row(
        ': the SDK over a stand-in store making the two-write floor writes, no lease or index (against that floor: what the runner costs; against the keyed row: what the store costs)',
        'runner',
      );
      const runnerScripts = row(
        ': the SDK over a stand-in store making the writes of the one-line scripts (the SDK over a store that does no work in its scripts)',
        'runnerScripts',
      );
      const keyed = row(' (intent store on a local Redis)', 'keyed');
      // The goal: within 10 points of the floor, as a ratio of the same baseline.
      keyed.goal = Math.max(0, floor.sdk.rate / floor.baseline.rate - 0.1);
      // The restatement proposed in the notes, checked in the same run: what the store adds
      // to the SDK over a store that does no work in its scripts, within 10 points of it.
      const proposed = row(
        ' (intent store on a local Redis), proposed goal: within 10 points of the SDK over a store that does no work in its scripts',
        'keyed',
      );
      proposed.goal = Math.max(0, runnerScripts.sdk.rate / runnerScripts.baseline.rate - 0.1);
      results.push(keyed, proposed, floor, written, scriptedRow, runner, runnerScripts);
    }
    return results;
  } finally {
    await redis.quit().catch(() => {});
    await engine.stop();
    server.stop();
  }
}

/** The Redis server's CPU time so far (µs, user and system: `INFO cpu`), its network work included. */
function serverCpuUs(info: string): number {
  let total = 0;
  for (const [, seconds] of info.matchAll(/^used_cpu_(?:sys|user):([\d.]+)/gm)) total += Number(seconds);
  return total * 1e6;
}
