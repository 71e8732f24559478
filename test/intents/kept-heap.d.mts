// Types of kept-heap.mjs (a plain .mjs: scripts/check-package.mjs runs it on the packed package).
export function heapPerKeptIntent(sdk: {
  MemoryIntentStore: unknown;
  PaymentsClient: unknown;
}): Promise<{ perIntent: number; kept: number }>;
