// Run by bench/instructions.ts under valgrind: `calls` payments.create calls, `concurrency` at a
// time, from the built package over a `fetch` that answers at once (no network, no other process),
// for one contender: `plain` (the resource without the intent layer), `keyed` (a new key a call,
// the default in-memory store) or `floor` (the resource with its keys kept in a bare Map, as
// bench/key-floor.ts keeps them).
//   node --predictable --import tsx bench/instructions-target.ts plain|keyed|floor <calls> <concurrency>
import { randomUUID } from 'node:crypto';
import { keyMemoryFloor, paymentsOver } from './key-floor.js';
import { sdk } from './sdk.js';
import { ORDER_ID, payment } from './server.js';

const [mode = '', calls, concurrency] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const PARAMS = { method: 'card', amount_cents: 12_500 } as const;
const fetch = async () =>
  new Response(payment(), {
    status: 201,
    headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
  });
const client = new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: 'http://127.0.0.1:9', fetch });
// `client.payments` as 0.2.0 ran it, and the floor: with keys kept in a bare Map.
const plain = paymentsOver(client);
const floor = paymentsOver(client, keyMemoryFloor());
const contenders: Record<string, () => Promise<unknown>> = {
  plain: () => plain.create(ORDER_ID, PARAMS),
  keyed: () => client.payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }),
  floor: () => floor.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }),
};
const call = contenders[mode];
if (!call) throw new Error(`unknown contender ${mode}: plain, keyed or floor`);
let started = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (started++ < calls) await call();
  }),
);
process.exit(0);
