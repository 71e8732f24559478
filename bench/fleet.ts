/**
 * What the fleet options cost while idle: `orders.get` through a client with `tokenStore` and
 * `rateLimit` set (limit far from reached) against the same client without them, side by side; then
 * the same with the rate limit kept in a shared store (`MemoryRateLimitStore`, spent through the
 * limiter's local lease of slots).
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
  // A limit far from reached, whose leases (64 slots, lapsing after the time 64 slots take to refill)
  // last a few calls at these rates.
  const shared = new sdk.PaymentsClient({
    ...credentials,
    tokenStore: new sdk.MemoryTokenStore(),
    rateLimit: { perSecond: 100_000, burst: 100_000, store: new sdk.MemoryRateLimitStore() },
  });
  const { perRound, rounds } = options;
  const results: Comparison[] = [];
  const contenders = [
    { name: '`tokenStore` + `rateLimit` idle', client: fleet },
    { name: '`tokenStore` + `rateLimit` with a shared store idle', client: shared },
  ];
  try {
    for (const { name, client } of contenders)
      for (const concurrency of [1, 64]) {
        const rates = await alternate(
          {
            fleet: () => throughput(() => client.orders.get(ORDER_ID), perRound, concurrency),
            plain: () => throughput(() => plain.orders.get(ORDER_ID), perRound, concurrency),
          },
          rounds,
        );
        results.push({
          figure: `\`orders.get\` with ${name}, concurrency ${concurrency}`,
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
