/**
 * Memory: the heap of one client over 100,000 requests, sampled after a full GC every 10,000.
 * A leak per request (a listener, a timer, a cached promise) shows as a steady climb. Also the heap
 * the default intent store takes per kept key (test/intents/footprint.test.ts keeps a looser bound).
 */
import { heapPerKeptIntent } from '../test/intents/kept-heap.mjs';
import { sdk } from './sdk.js';
import { ORDER_ID, startBenchServer } from './server.js';
import { throughput } from './stats.js';

export interface MemoryResult {
  /** Heap used in MB after each block of requests (the first after a warm-up block). */
  samplesMb: number[];
  requests: number;
  /** Last sample minus the first. */
  growthMb: number;
  /** Heap bytes per intent the default MemoryIntentStore keeps (its payment included). */
  bytesPerKeptIntent: number;
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench does)');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export async function benchMemory(total: number, samples = 10): Promise<MemoryResult> {
  const server = await startBenchServer();
  const client = new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: server.url });
  const block = Math.floor(total / samples);
  try {
    await throughput(() => client.orders.get(ORDER_ID), block, 64);
    const samplesMb = [heapAfterGc()];
    for (let i = 0; i < samples; i++) {
      await throughput(() => client.orders.get(ORDER_ID), block, 64);
      samplesMb.push(heapAfterGc());
    }
    const { perIntent } = await heapPerKeptIntent(sdk as Parameters<typeof heapPerKeptIntent>[0]);
    return {
      samplesMb,
      requests: block * samples,
      growthMb: samplesMb.at(-1)! - samplesMb[0]!,
      bytesPerKeptIntent: perIntent,
    };
  } finally {
    server.stop();
  }
}
