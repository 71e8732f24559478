/**
 * Helpers of the `partner-payments mcp` tests: the bin started from sources (tsx) by the MCP SDK's
 * own client over stdio, or with --http and reached by its Streamable HTTP client; tool results
 * read back; and a scan of every output for the secrets a test knows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { mockEnv, type Served } from '../cli/helpers.js';
import { serveMock } from '../helpers/loopback-mock.js';

const BIN = resolve(import.meta.dirname, '../../src/cli/partner/bin.ts');

/** An MCP client connected to a server, every tool result it got, and how to stop both. */
export interface Session {
  client: Client;
  /** Calls a tool; the result is recorded for {@link Session.outputs}. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Every tool result (and tools/list) this session received, as JSON text. */
  outputs: string[];
  /** What the server wrote on stderr. */
  stderr(): string;
  close(): Promise<void>;
  /** Kills the server's process with SIGKILL (a crash: nothing of it runs after), then closes. */
  kill(): Promise<void>;
}

function session(
  client: Client,
  stderr: () => string,
  stop: () => Promise<void>,
  kill: () => Promise<void> = stop,
): Session {
  const outputs: string[] = [];
  return {
    client,
    outputs,
    stderr,
    kill,
    call: async (name, args = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      outputs.push(JSON.stringify(result));
      return result;
    },
    close: stop,
  };
}

/**
 * The bin's `mcp` command from sources on stdio, with the mock's environment. Without `--state-dir`
 * the server keeps its keys in the per-user default folder: each session gets its own empty one
 * (XDG_STATE_HOME, LOCALAPPDATA) unless `env` says otherwise, so that no test writes to the home of
 * whoever runs it, nor finds a key of an earlier run against another mock. It goes at close.
 */
export async function connectStdio(
  served: Served,
  flags: string[] = [],
  env: Record<string, string> = {},
  options: ClientOptions = {},
): Promise<Session> {
  const state = mkdtempSync(join(tmpdir(), 'mcp-state-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BIN, 'mcp', ...flags],
    env: {
      ...(process.env as Record<string, string>),
      XDG_STATE_HOME: state,
      LOCALAPPDATA: state,
      ...served.env,
      ...env,
    },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = newClient(options);
  await client.connect(transport);
  const stop = async () => {
    await client.close();
    rmSync(state, { recursive: true, force: true });
  };
  return session(
    client,
    () => err,
    stop,
    async () => {
      const pid = transport.pid;
      if (pid !== null) {
        process.kill(pid, 'SIGKILL');
        while (alive(pid)) await new Promise((done) => setTimeout(done, 20));
      }
      await stop();
    },
  );
}

/** How the test's MCP client behaves. */
export interface ClientOptions {
  /** Declares MCP elicitation and answers each request with this (a person's answer). */
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

function newClient(options: ClientOptions): Client {
  const { elicit } = options;
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  return client;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** An MCP client over Streamable HTTP at `url`. */
export async function connectHttp(url: string, options: ClientOptions = {}): Promise<Session> {
  const client = newClient(options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return session(
    client,
    () => '',
    () => client.close(),
  );
}

/** The JSON a tool result's text holds (the structured content, or the failure). */
export function body(result: CallToolResult): Record<string, unknown> {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error('no text content');
  return JSON.parse(first.text) as Record<string, unknown>;
}

/** The secrets of `text` among `secrets`, by name (empty: clean). */
export function leaks(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, value]) => value.length >= 4 && text.includes(value))
    .map(([name]) => name);
}

/** The mock on loopback, recording what a leak scan needs and able to fail every order read. */
export interface Recorded extends Served {
  /** Access tokens, hosted checkout URLs and launch tokens the mock handed out. */
  handedOut: string[];
  /** While true, every GET of an order answers 503 (reconciliation cannot read). */
  outage: boolean;
  /** `POST` requests whose path ends with this, counted. */
  posts(suffix: string): number;
}

export async function serveRecording(): Promise<Recorded> {
  const log: string[] = [];
  const handedOut: string[] = [];
  const state = { outage: false };
  const served = await serveMock({
    front: async (request, mock) => {
      const url = new URL(request.url);
      log.push(`${request.method} ${url.pathname}`);
      if (state.outage && request.method === 'GET' && url.pathname.startsWith('/pos/v1/orders/')) {
        return Response.json(
          { error: 'service_unavailable', message: 'outage', request_id: 'r' },
          { status: 503 },
        );
      }
      const response = await mock.fetch(request).catch(() => Response.error());
      if (response.ok && (url.pathname.endsWith('/token') || url.pathname.endsWith('/orders'))) {
        const json = (await response.clone().json()) as Record<string, unknown>;
        for (const k of ['access_token', 'hosted_checkout_url', 'launch_token']) {
          if (typeof json[k] === 'string') handedOut.push(json[k] as string);
        }
      }
      return response;
    },
  });
  const { mock } = served;
  const recorded: Recorded = {
    mock,
    url: served.url,
    log,
    handedOut,
    get outage() {
      return state.outage;
    },
    set outage(value: boolean) {
      state.outage = value;
    },
    posts: (suffix) => log.filter((l) => l.startsWith('POST ') && l.endsWith(suffix)).length,
    env: mockEnv(mock, served.url),
    close: served.stop,
  };
  return recorded;
}
