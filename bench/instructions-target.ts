// Run by bench/instructions.ts under valgrind: `calls` payments.create calls, `concurrency` at a
// time, from the built package over a `fetch` that answers at once (no network, no other process),
// for one contender: `plain` (the resource without the intent layer), `keyed` (a new key a call,
// the default in-memory store) or `floor` (the plain call with its key kept in a bare Map).
//   node --predictable --import tsx bench/instructions-target.ts plain|keyed|floor <calls> <concurrency>
import { randomUUID } from 'node:crypto';
import type { PaymentsClient, Requester } from '../src/index.js';
import { keyMemoryFloor } from './key-floor.js';
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
// `client.payments` as 0.2.0 ran it: the same resource class over a requester with no intent layer.
const requester: Requester = { request: (spec) => client.request(spec) };
const Payments = client.payments.constructor as new (r: Requester) => PaymentsClient['payments'];
const plain = new Payments(requester);
const plainCreate = () => plain.create(ORDER_ID, PARAMS);
const contenders: Record<string, () => Promise<unknown>> = {
  plain: plainCreate,
  keyed: () => client.payments.create(ORDER_ID, PARAMS, { idempotencyKey: randomUUID() }),
  floor: keyMemoryFloor(plainCreate),
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
