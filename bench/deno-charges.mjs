// Run by Deno for bench/deno.ts: payments.create from the built package (the `deno` build) with the
// default transport, which sends each payment on a connection of its own, against the same call on
// the pooled global fetch (a caller's `fetch`), and the same two for a raw fetch without the SDK,
// in alternating rounds. Prints the samples as JSON.
//   deno run --allow-net=127.0.0.1 --allow-env --allow-read bench/deno-charges.mjs <url> <perRound> <rounds>
import process from 'node:process';
import { PaymentsClient } from '../dist/index.web.js';

const [url, perRound, rounds] = [Deno.args[0], Number(Deno.args[1]), Number(Deno.args[2])];
const ORDER_ID = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';
const path = `/pos/v1/orders/${ORDER_ID}/payments`;
const options = { baseUrl: url, accessToken: 'bench-token', maxRetries: 0 };
const own = new PaymentsClient(options);
const pooled = new PaymentsClient({ ...options, fetch: (input, init) => fetch(input, init) });
const params = { method: 'card', amount_cents: 1_250 };
const init = () => ({
  method: 'POST',
  body: JSON.stringify(params),
  headers: { 'content-type': 'application/json', authorization: 'Bearer bench-token' },
});
const rawFresh = async () => {
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    await (await fetch(url + path, { ...init(), client })).json();
  } finally {
    client.close();
  }
};
const rawPooled = async () => (await fetch(url + path, init())).json();

const contenders = {
  sdkOwn: () => own.payments.create(ORDER_ID, params),
  sdkPooled: () => pooled.payments.create(ORDER_ID, params),
  rawFresh,
  rawPooled,
};

async function sample(call) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < perRound; i++) await call();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { rate: perRound / seconds, cpuUs: (cpu.user + cpu.system) / perRound };
}

const names = Object.keys(contenders);
const samples = Object.fromEntries(names.map((n) => [n, []]));
for (const name of names) await sample(contenders[name]);
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(round + i) % names.length];
    samples[name].push(await sample(contenders[name]));
  }
}
console.log(JSON.stringify({ deno: Deno.version.deno, samples }));
