/**
 * What exactly-once costs on the success path: `payments.create` with an idempotency key and the
 * default in-memory intent store, against the same resource without the intent layer (0.2.0's
 * path: validate, one POST, parse), with the same store capped at 100 intents (what keeping 10,000
 * costs, apart from each call's work), and with the intent store on a real Redis (a local
 * redis-server on loopback), in alternating rounds on the same loopback server.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { PaymentsClient } from '../src/index.js';
import { startRedis } from '../test/fleets/engines.js';
import { keyMemoryFloor, paymentsOver } from './key-floor.js';
import type { Comparison } from './report.js';
import { sdk, stores } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { alternate, summarize, throughput } from './stats.js';

const TOKEN = 'bench-token';
const PARAMS = { method: 'card', amount_cents: 12_500 } as const;

export async function benchIntents(options: { perRound: number; rounds: number }): Promise<Comparison[]> {
  const server = await startBenchServer();
  const redisEngine = await startRedis();
  const redis = await createClient({ url: redisEngine.url })
    .on('error', () => {})
    .connect();
  const base = { accessToken: TOKEN, baseUrl: server.url };
  const client = new sdk.PaymentsClient(base);
  const plain = paymentsOver(client);
  // The same store kept small: what remembering 10,000 intents costs beside the work of each call.
  const small = new sdk.PaymentsClient({
    ...base,
    intentStore: new sdk.MemoryIntentStore({ maxIntents: 100 }),
  });
  const onRedis = new sdk.PaymentsClient({ ...base, intentStore: stores.redisStores(redis).intentStore });
  // The floor of the in-memory figure: the same resource with the least a layer must do to remember
  // its keys in memory, on the same hook the intent layer takes (bench/key-floor.ts).
  const floor = paymentsOver(client, keyMemoryFloor());
  const { perRound, rounds } = options;
  try {
    const results: Comparison[] = [];
    for (const concurrency of [1, 32]) {
      const run = (call: () => Promise<unknown>) => () => throughput(call, perRound, concurrency);
      // A new key each call, as partners make them.
      const keyed = (payments: PaymentsClient['payments']) =>
        run(() => payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }));
      const rates = await alternate(
        {
          keyed: keyed(client.payments),
          plain: run(() => plain.create(ORDER_ID, PARAMS)),
          floor: keyed(floor),
          small: keyed(small.payments),
          redis: keyed(onRedis.payments),
        },
        rounds,
      );
      const figure = `\`payments.create\` with a key, concurrency ${concurrency}`;
      // Every row against the same resource without the intent layer, in the same rounds.
      const row = (what: string, contender: keyof typeof rates, goal = 0): Comparison => ({
        figure: `${figure}${what}`,
        unit: 'req/s',
        sdk: summarize(rates[contender]),
        baselineName: 'the same resource without the intent layer (0.2.0)',
        baseline: summarize(rates.plain),
        goal,
        requests: perRound * rounds,
      });
      results.push(
        row(' (in-memory intent store)', 'keyed', 0.95),
        row(
          ': the same resource, its keys and results in a bare Map, settled inside the call (the floor of the figure above)',
          'floor',
        ),
        row(': the in-memory intent store keeping at most 100 intents (not 10,000)', 'small'),
        row(' (intent store on a local Redis)', 'redis'),
      );
    }
    return results;
  } finally {
    await redis.quit().catch(() => {});
    await redisEngine.stop();
    server.stop();
  }
}
