/**
 * Helpers of the `partner-payments` bin's tests: the mock served on loopback behind a fetch handler
 * the test shapes (the log of requests, a Date header from the mock clock, a processor that settles
 * verify's refund order), a tampering proxy for planted deviations, a free port, and main() run
 * with captured output.
 */
import { createServer } from 'node:net';
import { main } from '../../src/cli/partner/main.js';
import { type MockService, type MockServiceOptions, serveFetch } from '../../src/testing/index.js';
import { serveMock as serveLoopbackMock } from '../helpers/loopback-mock.js';

export interface Served {
  mock: MockService;
  url: string;
  /** `METHOD /path` of every request the mock answered, in order. */
  log: string[];
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface ServeOptions extends MockServiceOptions {
  /** The Date header from the mock clock (node:http would send the real time). */
  clockDate?: boolean;
  /** Approve and settle the payment of verify's `--settle-wait` order, and confirm its refunds. */
  processor?: boolean;
}

/** The mock on a loopback server, with the environment a partner would set for it. */
export async function serveMock(options: ServeOptions = {}): Promise<Served> {
  const { clockDate, processor, ...mockOptions } = options;
  const log: string[] = [];
  const served = await serveLoopbackMock({
    ...mockOptions,
    front: async (request, mock) => {
      const url = new URL(request.url);
      log.push(`${request.method} ${url.pathname}`);
      const response = await mock.fetch(request);
      if (processor) settleVerifyOrders(mock);
      if (!clockDate) return response;
      const headers = new Headers(response.headers);
      headers.set('date', new Date(mock.clock.now()).toUTCString());
      return new Response(response.body, { status: response.status, headers });
    },
  });
  return {
    mock: served.mock,
    url: served.url,
    log,
    env: mockEnv(served.mock, served.url),
    close: served.stop,
  };
}

/** The processor for verify's settle flow: its order's payment settles, its refunds are confirmed. */
function settleVerifyOrders(mock: MockService): void {
  const snap = mock.snapshot();
  const settleOrders = new Set(
    snap.orders.filter((o) => o.description?.includes('settled, then refunded')).map((o) => o.order_id),
  );
  for (const p of snap.payments) {
    if (!settleOrders.has(p.order_id) || p.status !== 'pending') continue;
    mock.processor.approve(p.payment_id);
    mock.processor.settle(p.payment_id);
  }
  for (const r of snap.refunds) if (r.status === 'pending') mock.processor.confirmRefund(r.refund_id);
}

/** Changes the mock's answer to `method path` (given its parsed JSON body), or leaves it (undefined). */
export type Tamper = (
  req: { method: string; path: string },
  res: { status: number; json: unknown },
) => { status?: number; json?: unknown } | undefined;

/** A proxy on loopback in front of `upstream` that changes answers as `tamper` says. */
export async function tamperingProxy(
  upstream: string,
  tamper: Tamper,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const body = request.method === 'GET' ? undefined : await request.text();
    const headers = new Headers(request.headers);
    for (const name of ['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])
      headers.delete(name);
    const answer = await fetch(upstream + url.pathname + url.search, {
      method: request.method,
      headers,
      body,
    });
    const text = await answer.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return new Response(text, { status: answer.status, headers: answer.headers });
    }
    const change = tamper({ method: request.method, path: url.pathname }, { status: answer.status, json });
    const out = new Headers(answer.headers);
    out.delete('content-length');
    out.delete('transfer-encoding');
    return new Response(JSON.stringify(change?.json ?? json), {
      status: change?.status ?? answer.status,
      headers: out,
    });
  });
  return { url: server.url, close: () => server.close() };
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Runs the bin's main() with `argv` and `env`; returns the exit code and what it wrote. */
export async function run(
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; stdout: string; stderr: string; lines: string[] }> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    argv,
    {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      env,
    },
    { pollIntervalMs: 20 },
  );
  return { code, stdout, stderr, lines: stdout.split('\n') };
}

/** The first output line holding `text`. */
export function line(stdout: string, text: string): string {
  return stdout.split('\n').find((l) => l.includes(text)) ?? `(no line with ${text})`;
}

/** The doctor's line of one check, by its title (`credentials`, `API`). */
export function check(stdout: string, title: string): string {
  return stdout.split('\n').find((l) => l.slice(6, 23).trim() === title) ?? `(no check ${title})`;
}

/** The variables a bin reads to reach `mock` served at `url`. */
export function mockEnv(mock: MockService, url: string): Record<string, string> {
  return {
    PAYMENTS_CLIENT_ID: mock.credentials.clientId,
    PAYMENTS_CLIENT_SECRET: mock.credentials.clientSecret,
    PAYMENTS_BASE_URL: url,
    PAYMENTS_AUTH_URL: url,
  };
}
