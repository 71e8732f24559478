// `partner-payments mcp --http`: Streamable HTTP at 127.0.0.1/mcp, driven by the MCP SDK's own
// client; a request with a foreign Host or Origin (DNS rebinding) is refused with 403 before any
// tool runs, with the same request from this machine as the positive control.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { body, connectHttp, type Recorded, serveRecording } from './helpers.js';

const BIN = resolve(import.meta.dirname, '../../src/cli/partner/bin.ts');
let served: Recorded;
let child: ChildProcess;
let port: number;
// The server's keys go here, not to the per-user folder of whoever runs the test.
const state = mkdtempSync(join(tmpdir(), 'mcp-http-state-'));

beforeAll(async () => {
  served = await serveRecording();
  child = spawn(process.execPath, ['--import', 'tsx', BIN, 'mcp', '--http', '0', '--state-dir', state], {
    env: { ...process.env, ...served.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  port = await new Promise<number>((done, fail) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /serving http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (match) done(Number(match[1]));
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code}: ${err}`)));
  });
}, 30_000);
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  await served?.close();
  rmSync(state, { recursive: true, force: true });
});

/** A raw POST of `initialize` to the server with the given Host and Origin headers. */
function post(headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'list_locations', arguments: {} },
  });
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

it('serves the tools over Streamable HTTP at /mcp', async () => {
  const session = await connectHttp(`http://127.0.0.1:${port}/mcp`);
  try {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toContain('charge');
    const result = await session.call('list_locations', { limit: 2 });
    expect(result.isError).toBeFalsy();
    expect((body(result).items as unknown[]).length).toBe(2);
    const refused = await session.call('charge', { idempotency_key: 'k', order_id: 'x', amount_cents: 1 });
    expect(body(refused)).toMatchObject({ error: 'read_only' });
  } finally {
    await session.close();
  }
});

it('refuses a foreign Host or Origin with 403 before any tool runs', async () => {
  const host = `127.0.0.1:${port}`;
  const cases: Record<string, string>[] = [
    { host: `evil.example:${port}` },
    { host: 'attacker.example' },
    { host: '127.0.0.1:1' },
    { host, origin: 'http://evil.example' },
    { host, origin: `http://evil.example:${port}` },
    { host, origin: 'null' },
  ];
  const before = served.log.length;
  for (const headers of cases) {
    const answer = await post(headers);
    expect(answer.status, JSON.stringify(headers)).toBe(403);
    expect(answer.text).toContain('DNS rebinding');
  }
  expect(served.log.slice(before)).toEqual([]);
  // Positive control: the same call from this machine (its own Host, its own or no Origin) runs.
  const own: Record<string, string>[] = [
    { host },
    { host: `localhost:${port}`, origin: `http://localhost:${port}` },
  ];
  for (const headers of own) {
    const answer = await post(headers);
    expect(answer.status, `${JSON.stringify(headers)} ${answer.text}`).toBe(200);
  }
  expect(served.log.slice(before)).toContain('GET /pos/v1/locations');
});
