/**
 * The mock under load: the `partner-payments-mock` bin (built, `--rate-limit off`) against Prism 5
 * (`prism mock` of the mock's own OpenAPI document, `-v warn` so that it logs no line per request),
 * each in its own process, driven from this process by the same undici load at concurrency 32 in
 * alternating rounds. Figures: an authenticated location read and order creation. Besides the rates,
 * each server's CPU time per request is read from /proc (Linux), which depends less on what else
 * the machine runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { alternate, median, type Sample, throughput } from './stats.js';

const root = new URL('..', import.meta.url).pathname;
const CONCURRENCY = 32;

export interface MockBenchOptions {
  /** Requests per contender per round. */
  perRound: number;
  rounds: number;
}

/** One contender's result on a figure: the median rate and the server's CPU per request. */
export interface ServerSample {
  rate: number;
  serverCpuUs: number;
}

export interface MockRow {
  figure: string;
  mock: ServerSample;
  prism: ServerSample;
  /** The least mock/Prism ratio; 0 when the ratio is shown for context only. */
  ratioGoal: number;
  /** The least rate of the mock, requests per second. */
  rateGoal: number;
  requests: number;
}

export interface MockBenchResult {
  prismVersion: string;
  rows: MockRow[];
  loadBefore: string;
  loadAfter: string;
}

interface Server {
  base: string;
  child: ChildProcess;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process used so far, from /proc; NaN where there is none. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Starts the built bin; resolves with its base URL and the printed client and location. */
async function startMock() {
  const child = spawn(
    process.execPath,
    [join(root, 'dist/cli/mock.js'), '--port', '0', '--rate-limit', 'off'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${out}`)));
  });
  const field = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(banner)?.[1] ?? '';
  return {
    server: { base: field('base URL'), child } satisfies Server,
    clientId: field('client id'),
    clientSecret: field('client secret'),
    location: field('\\(payments enabled\\)'),
  };
}

/** Starts Prism on a copy of the mock's OpenAPI document; resolves once it answers. */
async function startPrism(documentUrl: string): Promise<Server> {
  const document = join(tmpdir(), `partner-payments-openapi-${process.pid}.json`);
  writeFileSync(document, await (await fetch(documentUrl)).text());
  const port = await freePort();
  const prism = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');
  const child = spawn(
    process.execPath,
    [prism, 'mock', '-p', String(port), '-h', '127.0.0.1', '-v', 'warn', document],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      await fetch(`${base}/pos/v1/.well-known/openapi.json`);
      return { base, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error('Prism did not start within 60 s');
}

type Call = () => Promise<unknown>;

/** A call through `pool` that fails loudly on any answer but `expected` (a 429 would void the figure). */
function caller(pool: Pool, request: Parameters<Pool['request']>[0], expected: number): Call {
  return async () => {
    const { statusCode, body } = await pool.request(request);
    const text = await body.text();
    if (statusCode !== expected)
      throw new Error(`${request.method} ${request.path}: ${statusCode} ${text.slice(0, 200)}`);
  };
}

/** A contender's round: the rate (this process's clock) and the server's CPU per request. */
function round(server: Server, call: Call, perRound: number) {
  return async (): Promise<Sample> => {
    const before = cpuSeconds(server.child.pid);
    const sample = await throughput(call, perRound, CONCURRENCY);
    const serverCpu = cpuSeconds(server.child.pid) - before;
    return { rate: sample.rate, cpuUs: (serverCpu * 1e6) / perRound };
  };
}

const summary = (samples: Sample[]): ServerSample => ({
  rate: median(samples.map((s) => s.rate)),
  serverCpuUs: median(samples.map((s) => s.cpuUs)),
});

export async function benchMock(options: MockBenchOptions): Promise<MockBenchResult> {
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const mock = await startMock();
  const prism = await startPrism(`${mock.server.base}/pos/v1/.well-known/openapi.json`);
  const pools = {
    mock: new Pool(mock.server.base, { connections: CONCURRENCY }),
    prism: new Pool(prism.base, { connections: CONCURRENCY }),
  };
  try {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: mock.clientId,
      client_secret: mock.clientSecret,
    });
    const minted = await fetch(`${mock.server.base}/oauth2/token`, { method: 'POST', body: form });
    const { access_token: token } = (await minted.json()) as { access_token: string };
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const read = { method: 'GET' as const, path: `/pos/v1/locations/${mock.location}`, headers };
    const create = {
      method: 'POST' as const,
      path: '/pos/v1/orders',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: mock.location, total_cents: 2_500, external_reference: 'LOAD-1' }),
    };
    const figures = [
      {
        figure: 'authenticated location read (`GET /pos/v1/locations/{id}`), concurrency 32',
        request: read,
        status: 200,
        ratioGoal: 3,
        rateGoal: 5_000,
      },
      {
        figure: 'order creation (`POST /pos/v1/orders`), concurrency 32',
        request: create,
        status: 201,
        ratioGoal: 0,
        rateGoal: 2_000,
      },
    ];
    const rows: MockRow[] = [];
    for (const f of figures) {
      const samples = await alternate(
        {
          mock: round(mock.server, caller(pools.mock, f.request, f.status), options.perRound),
          prism: round(prism, caller(pools.prism, f.request, f.status), options.perRound),
        },
        options.rounds,
      );
      rows.push({
        figure: f.figure,
        mock: summary(samples.mock),
        prism: summary(samples.prism),
        ratioGoal: f.ratioGoal,
        rateGoal: f.rateGoal,
        requests: options.perRound * options.rounds,
      });
    }
    const prismVersion = JSON.parse(
      readFileSync(join(root, 'node_modules/@stoplight/prism-cli/package.json'), 'utf8'),
    ).version as string;
    return {
      prismVersion,
      rows,
      loadBefore,
      loadAfter: loadavg()
        .map((l) => l.toFixed(2))
        .join(', '),
    };
  } finally {
    await Promise.all([pools.mock.close(), pools.prism.close()]);
    mock.server.child.kill('SIGTERM');
    prism.child.kill('SIGTERM');
  }
}
