/**
 * The cost of redaction when a process holds many clients: 1,000 failed calls (a 404 answered by an
 * in-process `fetch`, so no network) through one client, measured with that client alone and again
 * after 50,000 more clients with per-user access tokens exist (kept alive, as a server caching one
 * client per user would). With a process-wide secret list every error scans every client's secret;
 * with a registry per client, an error scans only its own client's.
 */
import { randomUUID } from 'node:crypto';
import { sdk } from './sdk.js';
import { ORDER_ID } from './server.js';

export interface RedactionResult {
  /** Milliseconds to construct 1,000 `NotFoundError`s, with one client in the process. */
  buildAloneMs: number;
  /** The same after `clients` more clients were created. */
  buildCrowdedMs: number;
  /** Milliseconds for 1,000 failed calls with one client in the process. */
  aloneMs: number;
  /** The same after `clients` more clients were created. */
  crowdedMs: number;
  clients: number;
  errors: number;
}

const notFound: typeof fetch = async () =>
  new Response(JSON.stringify({ error: 'order_not_found', message: 'No such order', request_id: 'req_1' }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });

async function timeErrors(client: InstanceType<typeof sdk.PaymentsClient>, errors: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < errors; i++) {
    const error = await client.orders.get(ORDER_ID).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof sdk.NotFoundError)) throw new Error('expected a NotFoundError');
  }
  return performance.now() - t0;
}

function timeBuild(errors: number): number {
  const init = {
    status: 404,
    code: 'order_not_found',
    message: 'No such order',
    requestId: 'req_1',
    headers: {},
  };
  const t0 = performance.now();
  for (let i = 0; i < errors; i++) new sdk.NotFoundError(init);
  return performance.now() - t0;
}

export async function benchRedaction(clients = 50_000, errors = 1_000): Promise<RedactionResult> {
  const options = { baseUrl: 'https://payments.example.com', fetch: notFound, maxRetries: 0 };
  const client = new sdk.PaymentsClient({ ...options, accessToken: `user_${randomUUID()}` });
  await timeErrors(client, errors); // warm-up
  timeBuild(errors);
  const buildAloneMs = timeBuild(errors);
  const aloneMs = await timeErrors(client, errors);
  const crowd = Array.from(
    { length: clients },
    () => new sdk.PaymentsClient({ ...options, accessToken: `user_${randomUUID()}` }),
  );
  const buildCrowdedMs = timeBuild(errors);
  const crowdedMs = await timeErrors(client, errors);
  if (crowd.length !== clients) throw new Error('unreachable');
  return { buildAloneMs, buildCrowdedMs, aloneMs, crowdedMs, clients, errors };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const r = await benchRedaction();
  console.log(
    `${r.errors} errors built: ${r.buildAloneMs.toFixed(1)} ms with one client, ${r.buildCrowdedMs.toFixed(1)} ms with ${r.clients} more clients`,
  );
  console.log(
    `${r.errors} failed calls: ${r.aloneMs.toFixed(1)} ms with one client, ${r.crowdedMs.toFixed(1)} ms with ${r.clients} more clients`,
  );
}
