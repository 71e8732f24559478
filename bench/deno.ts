/**
 * What a connection of its own per charge costs on Deno (issue: Deno's fetch resends a request on a
 * reset pooled connection, so the SDK sends payments and refunds on a fresh one). Deno runs
 * bench/deno-charges.mjs against a loopback server in this process, over HTTP and over TLS (the
 * test fixture's key and certificate for 127.0.0.1): payments.create with the default transport against the
 * same call on the pooled global fetch, and a raw fetch on a fresh client against a raw pooled one.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Comparison } from './report.js';
import { type Sample, summarize } from './stats.js';

const root = new URL('..', import.meta.url).pathname;
const tls = new URL('../test/fixtures/loopback-tls/', import.meta.url).pathname;

const PAYMENT = JSON.stringify({
  payment_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  order_id: '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05',
  status: 'pending',
  amount_cents: 1_250,
  method: 'card',
  created_at: '2026-11-22T03:00:00.000Z',
});

function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.on('end', () => {
    res.writeHead(201, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(PAYMENT),
      'x-request-id': 'req_bench',
    });
    res.end(PAYMENT);
  });
}

async function listen(secure: boolean): Promise<{ url: string; close(): void }> {
  const server = secure
    ? createHttps({ cert: readFileSync(`${tls}cert.pem`), key: readFileSync(`${tls}key.pem`) }, answer)
    : createHttp(answer);
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

interface DenoRun {
  deno: string;
  samples: Record<'sdkOwn' | 'sdkPooled' | 'rawFresh' | 'rawPooled', Sample[]>;
}

export async function benchDeno(options: { perRound: number; rounds: number }): Promise<Comparison[]> {
  const deno = `${root}node_modules/.bin/deno`;
  const rows: Comparison[] = [];
  for (const secure of [false, true]) {
    const server = await listen(secure);
    try {
      const { stdout } = await promisify(execFile)(
        deno,
        [
          'run',
          '--allow-net=127.0.0.1',
          '--allow-env',
          '--allow-read',
          // The fixture is self-signed with CA:TRUE, which rustls refuses as a server certificate;
          // the handshake is the same, the chain check is skipped.
          '--unsafely-ignore-certificate-errors=127.0.0.1',
          `${root}bench/deno-charges.mjs`,
          server.url,
          String(options.perRound),
          String(options.rounds),
        ],
        { cwd: root, maxBuffer: 16 << 20 },
      );
      const run = JSON.parse(stdout) as DenoRun;
      const over = secure ? 'TLS' : 'HTTP';
      const requests = options.perRound * options.rounds;
      rows.push(
        {
          figure: `Deno ${run.deno}: payments.create, a connection of its own per charge (${over}, loopback)`,
          unit: 'req/s',
          sdk: summarize(run.samples.sdkOwn),
          baselineName: 'the same call on the pooled fetch',
          baseline: summarize(run.samples.sdkPooled),
          goal: 0,
          requests,
        },
        {
          figure: `Deno ${run.deno}: raw fetch POST on a fresh client (${over}, loopback)`,
          unit: 'req/s',
          sdk: summarize(run.samples.rawFresh),
          baselineName: 'raw fetch POST, pooled',
          baseline: summarize(run.samples.rawPooled),
          goal: 0,
          requests,
        },
      );
    } finally {
      server.close();
    }
  }
  return rows;
}
