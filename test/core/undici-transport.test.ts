// The default Node.js transport reads responses through undici's dispatcher API with its own
// handler. These are the behaviours it must keep from undici's `request()` (BOM, repeated headers,
// 1xx ignored, error classification) and the one it adds: an attempt queued behind a busy
// connection ends at its timeout instead of waiting for the connection.

import { Agent } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import { APIConnectionError, APIConnectionTimeoutError } from '../../src/core/errors/api-errors.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';

const Ok = z.looseObject({ ok: z.boolean() });
const get = { method: 'GET', path: '/pos/v1/thing', retry: 'safe', response: Ok } as const;
let server: RawServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

describe('undici transport', () => {
  it('reads a body with a byte order mark, joins repeated headers, lower-cases names', async () => {
    server = await startRawServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('X-Thing', ['a', 'b']);
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true}')]));
    });
    const client = new PaymentsClient({ baseUrl: server.url, accessToken: 'tok_transport_1', maxRetries: 0 });
    const { data, headers } = await client.request(get).withResponse();
    expect(data).toEqual({ ok: true });
    expect(headers['x-thing']).toBe('a, b');
  });

  it('reads a body that arrives in many chunks, multi-byte characters split across them', async () => {
    const text = JSON.stringify({ ok: true, note: 'Crème brûlée, 日本語 '.repeat(2_000) });
    server = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const bytes = Buffer.from(text);
      for (let i = 0; i < bytes.length; i += 1001) res.write(bytes.subarray(i, i + 1001));
      res.end();
    });
    const client = new PaymentsClient({ baseUrl: server.url, accessToken: 'tok_transport_1', maxRetries: 0 });
    const data = await client.request(get);
    expect(data.note).toBe(JSON.parse(text).note);
  });

  it('a reset after the request was read is a lost connection, not a timeout', async () => {
    server = await startRawServer((req) => req.socket.destroy());
    const client = new PaymentsClient({ baseUrl: server.url, accessToken: 'tok_transport_1', maxRetries: 0 });
    const error = await client.request(get).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/after the request was sent/);
  });

  it('an attempt waiting for a busy connection ends at its timeout: not sent, and the error says so', async () => {
    // One connection, held by a request the server never answers: the second call waits in undici's
    // queue. `request()` only aborted a queued request once it got a connection; the attempt's time
    // covers the wait too.
    server = await startRawServer(() => {});
    const pool = new Agent({ connections: 1 });
    const client = new PaymentsClient({
      baseUrl: server.url,
      accessToken: 'tok_transport_1',
      maxRetries: 0,
      dispatcher: pool,
      timeoutMs: 60_000,
    });
    const first = client.request(get).catch(() => undefined);
    await vi.waitFor(() => expect(server?.hits.length).toBe(1));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const second = client.request({ ...get, options: { timeoutMs: 500 } }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(600);
    const error = await second;
    // Nothing was written, so the failure is a connection failure (safe to retry), not a timeout
    // with an unknown outcome.
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/nothing was sent/);
    expect(server.hits).toHaveLength(1);
    vi.useRealTimers();
    await pool.destroy();
    await first;
  });
});
