// Issue 10, violation 1: `timeoutMs` bounds the whole attempt (headers and body, a stream of 1xx
// responses too) and `deadlineMs` the whole call, on both transports, whatever the server drips.
// Fake setTimeout and Date drive the SDK's clock; the test drips one chunk per 250 ms of fake time.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import { APIConnectionTimeoutError, type PaymentsError } from '../../src/core/errors/api-errors.js';
import type { PaymentsClientOptions } from '../../src/core/options/options.js';
import { socketTransports } from '../helpers/socket-transports.js';

const realSetTimeout = globalThis.setTimeout;
const realTick = () => new Promise<void>((resolve) => realSetTimeout(resolve, 3));

type Mode = 'body' | 'early-hints';
let mode: Mode = 'body';
const open = new Set<ServerResponse>();
const server = createServer((req, res) => {
  req.resume();
  open.add(res);
  res.on('close', () => open.delete(res));
  if (mode === 'early-hints') res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
  else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"ok":');
  }
});
/** One more chunk on every open response: JSON whitespace, or another 103 Early Hints. */
function drip(): void {
  for (const res of open) {
    if (mode === 'early-hints') res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    else res.write(' ');
  }
}
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
// Ends the responses a test left dripping, and only those. Closing every connection here made the
// fetch cases fail by chance (on Node 22 every time, on Node 20 when run alone): after a request
// aborted mid-body, the `fetch` of Node 20 and 22 (undici 6) opens a spare connection to the origin
// and keeps it idle in its pool; the server closed it here, and the next test's request went out on
// it before the client had read the close: `UND_ERR_SOCKET` (other side closed) a few ms into the
// call, which the SDK rightly reports as a lost connection. A test of timeouts must not race the
// pool. (How each runtime's error is classified: test/core/attempt-ending.test.ts.)
afterEach(() => {
  vi.useRealTimers();
  for (const res of open) res.destroy();
});

const Ok = z.looseObject({ ok: z.boolean() });
const get = { method: 'GET', path: '/pos/v1/thing', retry: 'safe', response: Ok } as const;

/** Runs `call` while dripping one chunk per 250 ms of fake time; resolves with when it settled. */
async function dripUntilSettled(call: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  let settled: { error: unknown } | undefined;
  call.then(
    () => {
      settled = { error: undefined };
    },
    (error: unknown) => {
      settled = { error };
    },
  );
  const started = Date.now();
  for (let i = 0; i < 32 && !settled; i++) {
    await realTick();
    drip();
    await realTick();
    await vi.advanceTimersByTimeAsync(250);
  }
  for (let i = 0; i < 20 && !settled; i++) await realTick();
  return { error: settled ? settled.error : 'still pending after 8 s', elapsedMs: Date.now() - started };
}

const transports = Object.entries(socketTransports) as [string, PaymentsClientOptions][];

describe.each(transports)('the whole attempt is bounded [%s]', (_name, transportOptions) => {
  const client = (options: PaymentsClientOptions) =>
    new PaymentsClient({ accessToken: 'tok_test', baseUrl, maxRetries: 0, ...transportOptions, ...options });

  for (const m of ['body', 'early-hints'] as const) {
    it(`timeoutMs: 2000 ends an attempt whose ${m === 'body' ? 'body drips' : 'server sends 103 after 103'} at 2 s`, async () => {
      mode = m;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { error, elapsedMs } = await dripUntilSettled(client({ timeoutMs: 2_000 }).request(get));
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(elapsedMs).toBeGreaterThanOrEqual(2_000);
      expect(elapsedMs).toBeLessThanOrEqual(2_250);
    });

    it(`deadlineMs: 3000 ends the call at 3 s although the ${m === 'body' ? 'body' : '1xx stream'} never stops`, async () => {
      mode = m;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { error, elapsedMs } = await dripUntilSettled(
        client({ timeoutMs: 30_000, deadlineMs: 3_000 }).request(get),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect((error as PaymentsError).message).toMatch(/3000 ms deadline/);
      expect(elapsedMs).toBeGreaterThanOrEqual(3_000);
      expect(elapsedMs).toBeLessThanOrEqual(3_250);
    });
  }

  it('a deadline shorter than the timeout ends a retried call at the deadline', async () => {
    mode = 'body';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { error, elapsedMs } = await dripUntilSettled(
      client({ timeoutMs: 2_000, deadlineMs: 5_000, maxRetries: 5 }).request(get),
    );
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsedMs).toBeGreaterThanOrEqual(5_000);
    expect(elapsedMs).toBeLessThanOrEqual(5_250);
  });
});
