// `client.charge` rerun across restarts, from the packed tarball (api.md 22): each run is a new Node
// process of the scratch project with the default intent store (memory: it forgets), against the
// packed mock served on loopback by this process, which holds answers and kills runs where a crash
// would. Every key must end with one payment POST and one payment, returned by every rerun:
//   - a partial payment (5,000 of a 10,000 order) rerun twice;
//   - a first payment declined, rerun: the declined payment is returned, nothing sent;
//   - SIGKILL while the committed payment's answer is held, then a rerun;
//   - SIGKILL between the order and the payment (at the payment POST, before the service sees it).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CHARGE = `
import { PaymentsClient } from 'partner-payments';
const { key, total, amount } = JSON.parse(process.argv[2]);
const client = new PaymentsClient({ maxRetries: 0 });
// The control's planted defect: the order under the key, its payment under none (a second one each run).
const plant = process.env.RESTART_PLANT === '1';
const { order, payment } = plant ? await (async () => {
  const order = await client.orders.create({ location_id: process.env.PAYMENTS_LOCATION_ID, total_cents: total, external_reference: key }, { idempotencyKey: key });
  return { order, payment: await client.payments.create(order.order_id, { method: 'card', amount_cents: amount }) };
})() : await client.charge({
  idempotencyKey: key,
  order: { location_id: process.env.PAYMENTS_LOCATION_ID, total_cents: total, external_reference: key },
  ...(amount === undefined ? {} : { payment: { method: 'card', amount_cents: amount } }),
});
console.log('CHARGED ' + JSON.stringify({ order: order.order_id, payment: payment.payment_id, status: payment.status }));
`;
const TIMEOUT_MS = 20_000;

/** Runs one charge in a new process; `kill` decides, per request the mock sees, when to SIGKILL it. */
function charge(scratch, env, args) {
  const child = spawn(process.execPath, ['charge-rerun.mjs', JSON.stringify(args)], {
    cwd: scratch,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('CHARGED '));
      if (code === 0 && line) resolve(JSON.parse(line.slice(8)));
      else if (signal === 'SIGKILL') resolve({ killed: true });
      else reject(new Error(`restarts: the charge of ${args.key} exited ${code ?? signal}:\n${out}`));
    });
  });
  return { child, done };
}

export async function checkRestarts(scratch) {
  const pkg = join(scratch, 'node_modules', 'partner-payments', 'dist');
  const { createMockService, serveFetch } = await import(pathToFileURL(join(pkg, 'testing.js')).href);
  const mock = createMockService({ rateLimits: false, clock: { realTime: true } });
  /** Payment POSTs the service processed, per order; and the test's hook per payment POST. */
  const posts = new Map();
  let onPayment;
  const server = await serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path.endsWith('/payments') && onPayment) {
      const answer = await onPayment(request, path.split('/').at(-2));
      if (answer) return answer;
    }
    const response = await mock.fetch(request);
    if (request.method === 'POST' && path.endsWith('/payments') && response.ok) {
      const orderId = path.split('/').at(-2);
      posts.set(orderId, (posts.get(orderId) ?? 0) + 1);
    }
    return response;
  });
  writeFileSync(join(scratch, 'charge-rerun.mjs'), CHARGE);
  const env = {
    ...process.env,
    PAYMENTS_BASE_URL: server.url,
    PAYMENTS_AUTH_URL: server.url,
    PAYMENTS_CLIENT_ID: mock.credentials.clientId,
    PAYMENTS_CLIENT_SECRET: mock.credentials.clientSecret,
    PAYMENTS_LOCATION_ID: mock.fixtures.partners[0].locations.payments,
  };
  const failures = [];
  /** One payment on the order, one POST, and every run's answer that payment. */
  const expectOnce = (what, runs, into = failures) => {
    const answered = runs.filter((r) => !r.killed);
    const orderId = answered[0]?.order;
    const payments = mock.snapshot().payments.filter((p) => p.order_id === orderId);
    const ok =
      answered.length > 0 &&
      payments.length === 1 &&
      posts.get(orderId) === 1 &&
      answered.every((r) => r.order === orderId && r.payment === payments[0].payment_id);
    const line = `${what}: ${runs.length} processes, ${payments.length} payment(s), ${posts.get(orderId) ?? 0} payment POST(s) processed`;
    if (ok) console.log(`restarts: ${line}`);
    else into.push(`restarts: ${line}; answers ${JSON.stringify(runs)}`);
  };
  const run = (args, extra = {}) => charge(scratch, { ...env, ...extra }, args).done;
  try {
    // The control: the check catches a second payment (the payment sent under no key).
    const planted = [];
    const naive = { key: 'restart-control', total: 10_000, amount: 5_000 };
    const plant = { RESTART_PLANT: '1' };
    expectOnce('control', [await run(naive, plant), await run(naive, plant)], planted);
    if (planted.length !== 1)
      failures.push('restarts: the control made two payments and the check missed them');
    else console.log('restarts: the control (the payment sent under no key) is caught: 2 payments');

    // A partial payment, rerun twice.
    const partial = { key: 'restart-partial', total: 10_000, amount: 5_000 };
    expectOnce('a partial payment rerun twice', [await run(partial), await run(partial), await run(partial)]);

    // The first payment declined, then the rerun.
    const declined = { key: 'restart-declined', total: 4_000 };
    const first = await run(declined);
    mock.processor.decline(first.payment);
    const again = await run(declined);
    if (again.status !== 'declined') failures.push(`restarts: the declined rerun answered ${again.status}`);
    expectOnce('a declined payment rerun', [first, again]);

    // SIGKILL while the committed payment's answer is held.
    const held = { key: 'restart-held', total: 6_000 };
    let victim;
    onPayment = async (request, orderId) => {
      const response = await mock.fetch(request);
      posts.set(orderId, (posts.get(orderId) ?? 0) + 1);
      victim.child.kill('SIGKILL');
      return response;
    };
    victim = charge(scratch, env, held);
    const killed = await victim.done;
    onPayment = undefined;
    expectOnce('SIGKILL with the payment committed and its answer held, then a rerun', [
      killed,
      await run(held),
    ]);

    // SIGKILL between the order and the payment: the payment POST never reaches the service.
    const between = { key: 'restart-between', total: 7_000 };
    onPayment = async () => {
      victim.child.kill('SIGKILL');
      return Response.error();
    };
    victim = charge(scratch, env, between);
    const dead = await victim.done;
    onPayment = undefined;
    expectOnce('SIGKILL between the order and the payment, then a rerun', [dead, await run(between)]);
  } finally {
    onPayment = undefined;
    await server.close();
  }
  if (failures.length) throw new Error(failures.join('\n'));
}
