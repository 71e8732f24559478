/**
 * One Redis round trip on the caller's path (issue 42): keyed `payments.create` with the intent store
 * on a local Redis (redis-server on loopback), against the same resource without the intent layer,
 * beside two floors: one Redis round trip per call (`SET key NX PX`, then the unkeyed call), the
 * issue's floor; and one write before the send and one behind the answer (`SET NX` with the draft,
 * the unkeyed call, then `SET XX` with the result, not awaited): what any Redis-backed layer that
 * records a key's result must at least pay; and the same two writes each as a one-line script
 * (`EVALSHA` of that `SET`): what a store whose writes are conditional, and so run as scripts on
 * Redis, must at least pay, with no work in its scripts and no SDK around them. The goal: the keyed
 * figure within 10 points of the first floor's. Alternating rounds on the same loopback server, at
 * concurrency 1 and 32.
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
  // What the scripts cost: the same runner over a stand-in store that writes what the second floor
  // writes (a new key's draft with SET NX, its record with SET XX behind the answer). Not a store:
  // it keeps no lease, index or result uniqueness; the difference from `written` is the runner's.
  const overSets = new sdk.PaymentsClient({
    ...base,
    intentStore: {
      ...intentStore,
      async begin(draft) {
        const key = `bench-sets:${draft.key}`;
        await redis.sendCommand(['SET', key, JSON.stringify(draft), 'NX', 'PX', '60000']);
        return { status: 'acquired', record: draft };
      },
      put(record) {
        const key = `bench-sets:${record.key}`;
        void redis.sendCommand(['SET', key, JSON.stringify(record), 'XX', 'PX', '60000']).catch(() => {});
        return Promise.resolve('ok');
      },
    },
  });
  // The scripted floor's two writes: a one-line script each, loaded once (EVALSHA, as the store runs its own).
  const scripted = {
    begin: String(
      await redis.sendCommand([
        'SCRIPT',
        'LOAD',
        "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])",
      ]),
    ),
    land: String(
      await redis.sendCommand([
        'SCRIPT',
        'LOAD',
        "return redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])",
      ]),
    ),
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
          runner: run('runner', () =>
            overSets.payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }),
          ),
          floor: run('floor', async () => {
            await redis.sendCommand(['SET', `bench-floor:${randomUUID()}`, '1', 'NX', 'PX', '60000']);
            return plain.create(ORDER_ID, PARAMS);
          }),
          written: run('written', async () => {
            const key = `bench-floor:${randomUUID()}`;
            await redis.sendCommand(['SET', key, JSON.stringify({ key, ...PARAMS }), 'NX', 'PX', '60000']);
            const payment = await plain.create(ORDER_ID, PARAMS);
            void redis
              .sendCommand(['SET', key, JSON.stringify(payment), 'XX', 'PX', '60000'])
              .catch(() => {});
            return payment;
          }),
          scripts: run('scripts', async () => {
            const key = `bench-floor:${randomUUID()}`;
            const draft = JSON.stringify({ key, ...PARAMS });
            await redis.sendCommand(['EVALSHA', scripted.begin, '1', key, draft, '60000']);
            const payment = await plain.create(ORDER_ID, PARAMS);
            void redis
              .sendCommand(['EVALSHA', scripted.land, '1', key, JSON.stringify(payment), '60000'])
              .catch(() => {});
            return payment;
          }),
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
        ': the SDK over a stand-in store making the two writes of the floor above, no lease or index (against that floor: what the runner costs; against the keyed row: what the scripts cost)',
        'runner',
      );
      const keyed = row(' (intent store on a local Redis)', 'keyed');
      // The goal: within 10 points of the floor, as a ratio of the same baseline.
      keyed.goal = Math.max(0, floor.sdk.rate / floor.baseline.rate - 0.1);
      results.push(keyed, floor, written, scriptedRow, runner);
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
