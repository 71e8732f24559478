// createWebhookHandler on the Redis de-duplication store: with Redis up a delivery is handled once
// (200, then 200 duplicate); with Redis down (killed, or never listening) the handler answers 500 and
// does not run, so the service's retry processes the event once Redis is back.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RedisClientLike, redisStores } from '../../src/stores/index.js';
import { createWebhookHandler, signWebhookPayload, type WebhookEvent } from '../../src/webhooks/index.js';
import { sampleEvent } from '../webhooks/sample-event.js';
import { type Engine, startRedis } from './engines.js';

const SECRET = 'whsec_dedupe_handler_test';

type Flavour = 'ioredis' | 'node-redis';

/** A connected client of either flavour, as a partner would set it up (an error listener, bounded retries). */
async function connect(url: string, flavour: Flavour): Promise<{ client: RedisClientLike; close(): void }> {
  if (flavour === 'ioredis') {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    await redis.connect();
    return { client: redis, close: () => redis.disconnect() };
  }
  const redis = createClient({ url, socket: { reconnectStrategy: 100 } });
  redis.on('error', () => {});
  await redis.connect();
  return { client: redis as unknown as RedisClientLike, close: () => void redis.destroy() };
}

/** A handler on `client`'s dedupe store whose `payment.approved` handler records the events it ran. */
function receiver(client: RedisClientLike) {
  const ran: string[] = [];
  const errors: unknown[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    dedupe: redisStores(client).dedupeStore,
    // node-redis queues commands while it reconnects: the claim's time limit answers for it.
    dedupeTimeoutMs: 500,
    on: {
      'payment.approved': (event: WebhookEvent) => {
        ran.push(event.event_id);
      },
    },
    onError: (error) => {
      errors.push(error);
    },
  });
  const deliver = async (eventId: string) => {
    // A payment of its own per event: one transition is run once whatever its event id (api.md 23).
    const event = sampleEvent({ event_id: eventId }, { payment_id: randomUUID() });
    const { body, headers } = signWebhookPayload(event, SECRET);
    const response = await handler.fetch(
      new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body }),
    );
    return { status: response.status, body: (await response.json()) as { duplicate?: boolean } };
  };
  return { deliver, ran, errors };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.each<Flavour>(['ioredis', 'node-redis'])(
  'createWebhookHandler with the Redis dedupe store (%s)',
  (flavour) => {
    vi.setConfig({ testTimeout: 30_000 });
    let redis: Engine;
    beforeAll(async () => {
      redis = await startRedis();
    }, 60_000);
    afterAll(async () => {
      await redis?.stop();
    });

    it('positive control: with Redis up it answers 200 and runs the handler once per event', async () => {
      const { client, close } = await connect(redis.url, flavour);
      try {
        const { deliver, ran } = receiver(client);
        expect(await deliver('evt_up_1')).toEqual({ status: 200, body: { received: true } });
        expect(await deliver('evt_up_1')).toEqual({ status: 200, body: { received: true, duplicate: true } });
        expect(ran).toEqual(['evt_up_1']);
      } finally {
        close();
      }
    });

    it('answers 500 without running the handler when Redis goes down (killed)', async () => {
      const { client, close } = await connect(redis.url, flavour);
      try {
        const { deliver, ran, errors } = receiver(client);
        expect((await deliver('evt_before')).status).toBe(200);
        await redis.stop('SIGKILL'); // the outage
        const outage = await deliver('evt_during');
        expect(outage.status).toBe(500);
        expect(ran).toEqual(['evt_before']);
        expect(errors.length).toBeGreaterThan(0); // onError heard of the store failure
      } finally {
        close();
        redis = await startRedis(); // for the next test
      }
    });

    it('answers 500 without running the handler when Redis never answered (a closed port)', async () => {
      const port = await closedPort();
      const ioredis = new Redis(`redis://127.0.0.1:${port}`, {
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        retryStrategy: () => 50,
      });
      ioredis.on('error', () => {});
      try {
        const { deliver, ran } = receiver(ioredis);
        expect((await deliver('evt_closed')).status).toBe(500);
        expect(ran).toEqual([]);
      } finally {
        ioredis.disconnect();
      }
    });
  },
);
