import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
} from '../../src/core/errors/api-errors.js';
import type { RequestEvent, RetryEvent } from '../../src/core/observe/events.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID } from '../helpers/fixtures.js';
import { type RawServer, refusedUrl, resetAfterRead, startRawServer } from '../helpers/raw-server.js';
import { socketTransports } from '../helpers/socket-transports.js';

// No msw here: both transports talk to real loopback sockets.
const transports = socketTransports;

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(baseUrl: string, extra: object) {
  const client = new PaymentsClient({
    baseUrl,
    accessToken: 'static_token_value',
    reconcile: 'off',
    ...extra,
  });
  const requests: RequestEvent[] = [];
  const retries: RetryEvent[] = [];
  client.on('request', (e) => requests.push(e));
  client.on('retry', (e) => retries.push(e));
  return { client, requests, retries };
}

for (const [kind, extra] of Object.entries(transports)) {
  describe(`connection failures [${kind}]`, () => {
    it('payments.create is not retried after a reset after sending; the outcome is unknown', async () => {
      server = await startRawServer(resetAfterRead);
      const { client } = clientFor(server.url, extra);
      const error = await caught(client.payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
      expect(error).toMatchObject({ outcomeUnknown: true });
      expect((error as Error).message).toMatch(
        /after the request was sent.*outcome is unknown.*orders\.get/s,
      );
      expect(server.hits).toEqual([`POST /pos/v1/orders/${ORDER_ID}/payments`]);
    });

    it('a read is retried after a reset after sending', async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      server = await startRawServer(resetAfterRead);
      const { client, retries } = clientFor(server.url, extra);
      const error = await caught(
        client.request({
          method: 'GET',
          path: '/pos/v1/thing',
          retry: 'safe',
          response: z.unknown(),
          options: { maxRetries: 2 },
        }),
      );
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(server.hits).toHaveLength(3);
      expect(retries.map((r) => r.reason)).toEqual(['connection', 'connection']);
    });

    it('payments.create IS retried when the connection was never established (nothing was sent)', async () => {
      vi.spyOn(Math, 'random').mockReturnValue(0);
      const { client, requests } = clientFor(await refusedUrl(), extra);
      const error = await caught(client.payments.create(ORDER_ID, { method: 'card', amount_cents: 100 }));
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).toMatchObject({ outcomeUnknown: false });
      expect((error as Error).message).toMatch(
        /could not connect to 127\.0\.0\.1:\d+; nothing was sent \(ECONNREFUSED\)/,
      );
      expect(requests.map((r) => r.attempt)).toEqual([1, 2, 3]);
    });

    it('a total deadline ends a call whose attempts hang', async () => {
      server = await startRawServer(() => {});
      const { client, requests } = clientFor(server.url, { ...extra, deadlineMs: 200, timeoutMs: 10_000 });
      const started = Date.now();
      const error = await caught(
        client.request({ method: 'GET', path: '/pos/v1/slow', retry: 'safe', response: z.unknown() }),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(requests).toHaveLength(1);
    });

    it("the caller's signal aborts an attempt in flight at once", async () => {
      server = await startRawServer(() => {});
      const { client } = clientFor(server.url, extra);
      const controller = new AbortController();
      const pending = client.request({
        method: 'GET',
        path: '/pos/v1/slow',
        retry: 'safe',
        response: z.unknown(),
        options: { signal: controller.signal },
      });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    });
  });
}
