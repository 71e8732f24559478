// The heap a kept intent takes: 10,000 keyed payments on a canned `fetch`, each kept by the default
// in-memory intent store. Run on the sources by test/intents/footprint.test.ts and on the packed
// package by scripts/check-package.mjs (a bundler may drop what the sources rely on: it once dropped
// the key check that flattens keys).
import { collectGarbage } from '../helpers/gc.mjs';

const ORDER = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';

/**
 * Bytes of heap per kept intent (its payment included), and how many intents the store holds.
 * @param {{ MemoryIntentStore: any, PaymentsClient: any }} sdk The package's main entry, or the sources.
 * @returns {Promise<{ perIntent: number, kept: number }>}
 */
export async function heapPerKeptIntent(sdk) {
  let paid = 0;
  const fetch = async () =>
    new Response(
      JSON.stringify({
        payment_id: `5c1d2e3f-4a5b-4c6d-8e7f-${(++paid).toString(16).padStart(12, '0')}`,
        order_id: ORDER,
        status: 'pending',
        amount_cents: 12_500,
        method: 'card',
        created_at: '2026-11-22T03:00:00.000Z',
      }),
      { status: 201, headers: { 'content-type': 'application/json' } },
    );
  const intentStore = new sdk.MemoryIntentStore({ maxIntents: 1_000_000 });
  const client = new sdk.PaymentsClient({
    accessToken: 't',
    baseUrl: 'http://127.0.0.1:9',
    fetch,
    intentStore,
  });
  // Keys as partners make them: crypto.randomUUID() (a string V8 builds from 20 pieces).
  const charge = async (/** @type {number} */ n) => {
    for (let i = 0; i < n; i++)
      await client.payments.create(
        ORDER,
        { method: 'card', amount_cents: 12_500 },
        { idempotencyKey: crypto.randomUUID() },
      );
  };
  await charge(1_000);
  await collectGarbage();
  const before = process.memoryUsage().heapUsed;
  await charge(10_000);
  await collectGarbage();
  return { perIntent: (process.memoryUsage().heapUsed - before) / 10_000, kept: intentStore.size };
}
