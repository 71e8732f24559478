import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import { classifyFailure } from '../../src/core/transport/transport.js';
import { startRawServer } from '../helpers/raw-server.js';

const withCode = (code: string) => Object.assign(new Error('x'), { code });
// What global fetch throws: a TypeError whose cause carries the socket error's code.
const fetchFailure = (code: string) => new TypeError('fetch failed', { cause: withCode(code) });

describe('classifyFailure', () => {
  const cases: [string, unknown, 'connect' | 'sent' | 'timeout'][] = [
    ['ECONNREFUSED', withCode('ECONNREFUSED'), 'connect'],
    ['ENOTFOUND', withCode('ENOTFOUND'), 'connect'],
    ['EAI_AGAIN', withCode('EAI_AGAIN'), 'connect'],
    ['EHOSTUNREACH', withCode('EHOSTUNREACH'), 'connect'],
    ['undici connect timeout', withCode('UND_ERR_CONNECT_TIMEOUT'), 'connect'],
    ['fetch: refused (cause.code)', fetchFailure('ECONNREFUSED'), 'connect'],
    ['fetch: connect timeout (cause.code)', fetchFailure('UND_ERR_CONNECT_TIMEOUT'), 'connect'],
    ['ECONNRESET', withCode('ECONNRESET'), 'sent'],
    ['undici socket closed', withCode('UND_ERR_SOCKET'), 'sent'],
    ['fetch: socket closed (cause.code)', fetchFailure('UND_ERR_SOCKET'), 'sent'],
    ['EPIPE', withCode('EPIPE'), 'sent'],
    ['undici headers timeout', withCode('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    ['undici body timeout', withCode('UND_ERR_BODY_TIMEOUT'), 'timeout'],
    ['an error without a code (cautious)', new TypeError('Failed to fetch'), 'sent'],
    ['not an error at all', 'boom', 'sent'],
  ];
  it.each(cases)('%s -> %s', (_name, error, phase) => {
    expect(classifyFailure(error).phase).toBe(phase);
  });
});

describe('dispatcher option', () => {
  it("sends through the caller's undici dispatcher", async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.example.com')
      .intercept({
        path: '/pos/v1/ping',
        method: 'GET',
        headers: { authorization: 'Bearer user_token_1234' },
      })
      .reply(200, { ok: true }, { headers: { 'content-type': 'application/json' } });
    const client = new PaymentsClient({
      baseUrl: 'https://api.example.com',
      accessToken: 'user_token_1234',
      dispatcher: agent,
    });
    await expect(
      client.request({
        method: 'GET',
        path: '/pos/v1/ping',
        retry: 'safe',
        response: z.looseObject({ ok: z.boolean() }),
      }),
    ).resolves.toEqual({ ok: true });
    agent.assertNoPendingInterceptors();
    await agent.close();
  });
});

describe('proxy option', () => {
  it('tunnels requests through the proxy (CONNECT)', async () => {
    const target = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const tunnels: string[] = [];
    const proxy = createServer();
    proxy.on('connect', (req, socket, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const client = new PaymentsClient({
        baseUrl: target.url,
        accessToken: 'user_token_1234',
        proxy: proxyUrl,
      });
      await expect(
        client.request({ method: 'GET', path: '/pos/v1/ping', retry: 'safe', response: z.looseObject({}) }),
      ).resolves.toEqual({ ok: true });
      expect(tunnels).toEqual([target.url.replace('http://', '')]);
      expect(target.hits).toEqual(['GET /pos/v1/ping']);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
      await target.close();
    }
  });
});
