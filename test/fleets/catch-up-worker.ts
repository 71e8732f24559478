// A process of the catch-up fleet test (catch-up.test.ts): on shared Redis or PostgreSQL stores, it
// either charges (the fourth process, which made the payments) or runs catch-up passes whose
// callbacks append each transition to a shared log; with `dieAtRun`, it SIGKILLs itself on entering
// that callback, holding the transition's lease.
import { appendFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import { PaymentsClient } from '../../src/index.js';
import { postgresStores, redisStores } from '../../src/stores/index.js';
import { createWebhookHandler, type WebhookEvent } from '../../src/webhooks/index.js';

export interface CatchUpWorkerSetup {
  clientOptions: { clientId: string; clientSecret: string; baseUrl: string; authUrl: string };
  engine: 'redis' | 'postgres';
  url: string;
  log: string;
  partnerId: string;
}

export type CatchUpCommand =
  | { op: 'charge'; keys: string[]; locationId: string }
  | { op: 'catchUp'; dieAtRun?: number }
  | { op: 'close' };

let setup: CatchUpWorkerSetup | undefined;
let stores: ReturnType<typeof redisStores> | ReturnType<typeof postgresStores> | undefined;
let close: () => Promise<void> = async () => {};

function open(s: CatchUpWorkerSetup) {
  if (s.engine === 'redis') {
    const redis = new Redis(s.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    close = async () => redis.disconnect();
    return redisStores(redis);
  }
  const pool = new pg.Pool({ connectionString: s.url, max: 4 });
  pool.on('error', () => {});
  close = () => pool.end();
  return postgresStores(pool);
}

async function run(cmd: CatchUpCommand): Promise<unknown> {
  if (!setup || !stores) throw new Error('not set up');
  const client = new PaymentsClient({
    ...setup.clientOptions,
    intentStore: stores.intentStore,
    maxRetries: 2,
  });
  if (cmd.op === 'charge') {
    const ids: string[] = [];
    for (const key of cmd.keys) {
      const { payment } = await client.charge({
        idempotencyKey: key,
        order: { location_id: cmd.locationId, total_cents: 1_000 },
      });
      ids.push(payment.payment_id);
    }
    return ids;
  }
  if (cmd.op === 'catchUp') {
    let runs = 0;
    const log = setup.log;
    const record = async (event: WebhookEvent) => {
      if (++runs === cmd.dieAtRun) process.kill(process.pid, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 15)); // a handler's own work: the passes overlap
      appendFileSync(log, `${event.event_kind} ${event.resource.payment_id} ${process.pid}\n`);
    };
    const handler = createWebhookHandler({
      secret: 'whsec_unused',
      dedupe: stores.dedupeStore,
      transitionLeaseMs: 2_000,
      on: { 'payment.approved': record, 'payment.voided': record },
    });
    const { errors: _, ...result } = await handler.catchUp(client, {
      olderThanMs: 0,
      partnerId: setup.partnerId,
    });
    return result;
  }
  await close();
  return null;
}

process.on('message', (message: { id: number; setup?: CatchUpWorkerSetup; cmd?: CatchUpCommand }) => {
  if (message.setup) {
    setup = message.setup;
    stores = open(setup);
    process.send?.({ id: message.id, result: null });
    return;
  }
  run(message.cmd!).then(
    (result) => process.send?.({ id: message.id, result }),
    (error) => process.send?.({ id: message.id, error: String(error) }),
  );
});
