/**
 * The loopback node:http server every HTTP contender talks to, run in a child process so that it
 * does not share the benchmark's event loop. It answers a fixed order JSON to any GET, a token to a
 * POST to /oauth2/token, a pending payment to a POST to .../payments and a created order to any other
 * POST, after reading the whole request body.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const NOW = '2026-11-22T03:00:00.000Z';
export const ORDER_ID = '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05';

const ORDER = JSON.stringify({
  order_id: ORDER_ID,
  location_id: '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11',
  status: 'paid',
  total_cents: 12_500,
  description: 'Brake service, front axle',
  external_reference: 'INV-1001',
  customer_name: 'Dana Driver',
  opened_by_m2m_client_id: 'm2m-client-1',
  payments: [
    {
      payment_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      status: 'settled',
      amount_cents: 12_500,
      method: 'card',
      created_at: NOW,
    },
  ],
  created_at: NOW,
  updated_at: NOW,
});

const CREATED = JSON.stringify({ order_id: ORDER_ID, status: 'open', total_cents: 12_500, created_at: NOW });
// Every payment its own id, as the service gives (a payment id the intent store saw for another
// key would be refused as that key's: the same id for every payment would not be a success path).
let payments = 0;
/** A pending payment's JSON, with an id of its own (the bench server's answer to a payment POST). */
export const payment = () =>
  JSON.stringify({
    payment_id: `5c1d2e3f-4a5b-4c6d-8e7f-${(++payments).toString(16).padStart(12, '0')}`,
    order_id: ORDER_ID,
    status: 'pending',
    amount_cents: 12_500,
    method: 'card',
    created_at: NOW,
  });
const TOKEN = JSON.stringify({ access_token: 'bench-token', token_type: 'Bearer', expires_in: 3600 });

function serve(): void {
  const server = createServer((req, res) => {
    const post = req.method === 'POST';
    req.on('data', () => {});
    req.on('end', () => {
      const url = req.url ?? '';
      const body = post
        ? url.endsWith('/oauth2/token')
          ? TOKEN
          : url.endsWith('/payments')
            ? payment()
            : CREATED
        : ORDER;
      res.writeHead(post ? 201 : 200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-request-id': 'req_bench',
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
}

/** Starts the server in a child process; resolves with its URL and a stop function. */
export function startBenchServer(): Promise<{ url: string; stop(): void }> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (message) => {
      const { port } = message as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill() });
    });
  });
}

if (process.argv.includes('--serve')) serve();
