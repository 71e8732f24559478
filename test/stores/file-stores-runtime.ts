// Run by test/stores/file-stores-runtimes.test.ts under Bun and Deno (straight from the sources):
// fileStores on a fresh directory, the lease of a key, its landing, a second owner after it, and a
// webhook event claimed once. Prints one JSON line.
import { fileStores } from '../../src/stores/index.js';

const directory = process.argv[2] as string;
const { intentStore, dedupeStore } = fileStores(directory);
const now = Date.now();
const draft = {
  key: 'runtime-1',
  kind: 'payment' as const,
  fingerprint: 'f',
  orderId: 'o-1',
  paymentId: undefined,
  amountCents: 100,
  method: 'card',
  state: 'open' as const,
  firstSentAt: now,
  lastSentAt: now,
  sends: 1,
  resultId: undefined,
  result: undefined,
  candidates: undefined,
  createdAt: now,
  updatedAt: now,
};
const first = await intentStore.begin(draft, 'owner-a', 60_000);
const rival = await intentStore.begin(draft, 'owner-b', 60_000);
const put = await intentStore.put(
  { ...draft, state: 'landed', resultId: 'p-1', updatedAt: Date.now() },
  'owner-a',
  true,
);
const after = await intentStore.begin(draft, 'owner-c', 60_000);
const claims = [await dedupeStore.add('evt-1', 60_000), await dedupeStore.add('evt-1', 60_000)];
console.log(
  JSON.stringify({
    durable: intentStore.durable,
    statuses: [first.status, rival.status, put, after.status],
    stored: (await intentStore.get('runtime-1'))?.resultId,
    claims,
  }),
);
