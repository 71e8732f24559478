/**
 * Builds of the package side by side, without a network: each build's own CPU per call, in µs, with
 * a `fetch` that answers at once in the same process (no socket, no server). The HTTP figures of
 * bench/compare.ts move by several percent between runs on a shared machine; this measures only
 * what the SDK does around a request, so a change of a few percent shows.
 *
 *   node --import tsx bench/compare-cpu.ts before=.tmp/steps/0 after=.tmp/steps/1 [--rounds=12]
 *
 * Per build, in alternating rounds (who goes first alternates; the first two rounds are a warm-up):
 * `orders.get` one at a time and 64 at once, and `payments.create` without a key (the SDK makes one)
 * and with a new key of the caller's per call, the median µs per call, and each as a share of the
 * first build.
 */
import { randomUUID } from 'node:crypto';
import { buildsOf, median } from './stats.js';

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 12);
const builds = buildsOf(args, 'bench/compare-cpu.ts');

const ORDER_ID = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';
const ORDER = JSON.stringify({
  order_id: ORDER_ID,
  location_id: '5d0c9a6e-3b1f-4c2a-8e7d-1f2a3b4c5d6e',
  status: 'open',
  total_cents: 12_500,
  payments: [],
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
});
const PAYMENT = JSON.stringify({
  payment_id: '7f3a2b1d-4e05-4b7e-8c1a-5d2f4e8a9c61',
  order_id: ORDER_ID,
  status: 'pending',
  amount_cents: 12_500,
  method: 'card',
  created_at: '2026-11-26T00:00:00.000Z',
});
/** The service, answered in this process: an order for a GET, a payment for a POST. */
const fetch = async (_input: unknown, init?: { method?: string }) =>
  init?.method === 'POST'
    ? new Response(PAYMENT, { status: 201, headers: { 'content-type': 'application/json' } })
    : new Response(ORDER, { status: 200, headers: { 'content-type': 'application/json' } });

interface Client {
  orders: { get(id: string): Promise<unknown> };
  payments: {
    create(id: string, body: object, options?: { idempotencyKey: string }): Promise<unknown>;
  };
}

const CALLS = 5_000;
const body = { method: 'card', amount_cents: 12_500 };
const figures: Record<string, (c: Client) => Promise<void>> = {
  'orders.get c=1': async (c) => {
    for (let i = 0; i < CALLS; i++) await c.orders.get(ORDER_ID);
  },
  'orders.get c=64': async (c) => {
    for (let i = 0; i < CALLS / 64; i++) {
      await Promise.all(Array.from({ length: 64 }, () => c.orders.get(ORDER_ID)));
    }
  },
  'payments.create, no key': async (c) => {
    for (let i = 0; i < CALLS; i++) await c.payments.create(ORDER_ID, body);
  },
  'payments.create, a key': async (c) => {
    for (let i = 0; i < CALLS; i++) {
      await c.payments.create(ORDER_ID, body, { idempotencyKey: randomUUID() });
    }
  },
};
const callsOf = (figure: string) => (figure.endsWith('c=64') ? Math.floor(CALLS / 64) * 64 : CALLS);

const clients: Client[] = [];
for (const b of builds) {
  const sdk = await import(`${b.root}/node_modules/partner-payments/dist/index.js`);
  clients.push(new sdk.PaymentsClient({ accessToken: 'bench-token', baseUrl: 'http://127.0.0.1:9', fetch }));
}

const samples = builds.map(() => Object.fromEntries(Object.keys(figures).map((f) => [f, [] as number[]])));
for (let r = 0; r < rounds; r++) {
  const order = builds.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) {
    for (const [figure, run] of Object.entries(figures)) {
      const t0 = performance.now();
      await run(clients[i] as Client);
      const us = ((performance.now() - t0) * 1000) / callsOf(figure);
      if (r >= 2) samples[i]![figure]!.push(us);
    }
  }
}

const lines = [
  `The SDK's own CPU per call, without a network (${rounds - 2} alternating rounds of ${CALLS} calls after 2 of warm-up; a share of ${builds[0]!.label}). Command: \`node --import tsx bench/compare-cpu.ts ${args.join(' ')}\``,
  '',
  `| Build | ${Object.keys(figures)
    .map((f) => `\`${f}\``)
    .join(' | ')} |`,
  `|---|${Object.keys(figures)
    .map(() => '---:')
    .join('|')}|`,
];
for (const [i, b] of builds.entries()) {
  const cells = Object.keys(figures).map((f) => {
    const us = median(samples[i]![f]!);
    const base = median(samples[0]![f]!);
    return `${us.toFixed(1)} µs (${Math.round((us / base) * 100)}%)`;
  });
  lines.push(`| ${b.label} | ${cells.join(' | ')} |`);
}
console.log(lines.join('\n'));
