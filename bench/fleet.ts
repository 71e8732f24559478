/**
 * What the fleet options cost while idle: `orders.get` through a client with `tokenStore` and
 * `rateLimit` set (limit far from reached) against the same client without them, side by side.
 */
import type { Comparison } from './report.js';
import { sdk } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { alternate, summarize, throughput } from './stats.js';

export async function benchFleet(options: { perRound: number; rounds: number }): Promise<Comparison[]> {
  const server = await startBenchServer();
  const credentials = { clientId: 'bench-client', clientSecret: 'bench-secret', baseUrl: server.url };
  const plain = new sdk.PaymentsClient(credentials);
  const fleet = new sdk.PaymentsClient({
    ...credentials,
    tokenStore: new sdk.MemoryTokenStore(),
    rateLimit: { perSecond: 1e9, burst: 1e9, store: undefined },
  });
  const { perRound, rounds } = options;
  const results: Comparison[] = [];
  try {
    for (const concurrency of [1, 64]) {
      const rates = await alternate(
        {
          fleet: () => throughput(() => fleet.orders.get(ORDER_ID), perRound, concurrency),
          plain: () => throughput(() => plain.orders.get(ORDER_ID), perRound, concurrency),
        },
        rounds,
      );
      results.push({
        figure: `\`orders.get\` with \`tokenStore\` + \`rateLimit\` idle, concurrency ${concurrency}`,
        unit: 'req/s',
        sdk: summarize(rates.fleet),
        baselineName: 'same client without them',
        baseline: summarize(rates.plain),
        goal: 0.95,
        requests: perRound * rounds,
      });
    }
  } finally {
    server.stop();
  }
  return results;
}
