/**
 * The intent layer's own CPU, without a network: `IntentRunner` on the default `MemoryIntentStore`
 * around a send that resolves at once, against the same send alone and against the floor (the same
 * call with its key and result in a bare `Map` capped like the store: bench/key-floor.ts). The
 * least CPU a call of several rounds, in µs: what the bench's intents figure pays on top of the
 * request, before the cold caches of a real call multiply it. Also a digest of a fingerprint's
 * parts alone.
 *
 *   npx tsx bench/intents-layer.ts [concurrency=32] [maxIntents=10000]
 */
import { randomUUID } from 'node:crypto';
import { APIPromise, responseMeta } from '../src/core/call/api-promise.js';
import { MemoryIntentStore } from '../src/core/stores/memory-intent-store.js';
import type { IntentCall } from '../src/intents/intent.js';
import { IntentRunner } from '../src/intents/runner.js';
import { textDigest } from '../src/internal/key-hash.js';
import { realClock } from '../src/internal/wait-clock.js';
import { keyMemoryFloor } from './key-floor.js';

const concurrency = Number(process.argv[2] ?? 32);
const maxIntents = Number(process.argv[3] ?? 10_000);
const CALLS = 30_000;
const ROUNDS = 12;
const ORDER = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';
const params = { method: 'card', amount_cents: 12_500 };

const offPath = () => Promise.reject(new Error('not on the success path'));
let paid = 0;
// The core's answer: the runner lands the intent when the send resolves, before the call's promise
// does (without it every intent would stay open, and the store would never prune).
const send = () => {
  const data = {
    payment_id: `p-${++paid}`,
    order_id: ORDER,
    status: 'pending',
    amount_cents: 12_500,
    method: 'card',
    created_at: '2026-11-26T00:00:00.000Z',
  };
  return APIPromise.from(Promise.resolve(data), responseMeta());
};
const runner = new IntentRunner({
  send,
  store: new MemoryIntentStore({ maxIntents }),
  events: { wants: () => false, emit() {} },
  reconcile: 'auto',
  deadlineMs: undefined,
  maxRetries: 2,
  readOrder: offPath,
  readPayment: offPath,
  readRefund: offPath,
  settleMs: 30_000,
  clock: realClock,
  log: undefined,
});

const alone = () => APIPromise.run(send);
const intentCall = (): IntentCall => ({
  method: 'POST',
  path: `/pos/v1/orders/${ORDER}/payments`,
  retry: 'unsafe',
  body: params,
  intent: { kind: 'payment', orderId: ORDER },
  response: { parse: (r: unknown) => r } as unknown as IntentCall['response'],
  options: { idempotencyKey: randomUUID() },
});
const keyed = () => runner.once(intentCall());
const floorOnce = keyMemoryFloor(maxIntents);
const floor = () => floorOnce(intentCall(), send);

async function cpuPerCall(call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started++ < CALLS) await call();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

const least = {
  alone: Number.POSITIVE_INFINITY,
  floor: Number.POSITIVE_INFINITY,
  keyed: Number.POSITIVE_INFINITY,
};
for (let round = 0; round < ROUNDS; round++) {
  least.alone = Math.min(least.alone, await cpuPerCall(alone));
  least.floor = Math.min(least.floor, await cpuPerCall(floor));
  least.keyed = Math.min(least.keyed, await cpuPerCall(keyed));
}
const parts = ['payment', '|', ORDER, '|', '', '|', JSON.stringify(params)];
const digests = 1_000_000;
const t0 = performance.now();
for (let i = 0; i < digests; i++) textDigest(parts);
const digestNs = ((performance.now() - t0) / digests) * 1e6;

console.log(
  `concurrency ${concurrency}, maxIntents ${maxIntents}, least CPU a call of ${ROUNDS} rounds of ${CALLS}:\n` +
    `  send alone ${least.alone.toFixed(2)} µs\n` +
    `  floor (bare Map) +${(least.floor - least.alone).toFixed(2)} µs\n` +
    `  intent layer +${(least.keyed - least.alone).toFixed(2)} µs\n` +
    `  a fingerprint's digest ${digestNs.toFixed(0)} ns`,
);
