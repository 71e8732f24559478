/** Drives a webhook handler through its fetch door or its Node.js door (a real node:http server on loopback). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import type { WebhookHandler } from '../../src/webhooks/index.js';

/** What a delivery got back. */
export interface Reply {
  status: number;
  body: { received: boolean; duplicate?: true; error?: string };
  allow: string | null;
}

/** A request to make: by default a signed POST. */
export interface Send {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

export type Door = (handler: WebhookHandler, send: Send) => Promise<Reply>;

async function reply(response: Response): Promise<Reply> {
  return {
    status: response.status,
    body: JSON.parse(await response.text()),
    allow: response.headers.get('allow'),
  };
}

const fetchDoor: Door = async (handler, { method = 'POST', headers, body }) => {
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body, duplex: 'half' });
  return reply(await handler.fetch(new Request('http://127.0.0.1/webhooks', init)));
};

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/**
 * A node:http server calling `handler.node`; `prepare` runs first, to play a framework that read the
 * body already.
 */
export async function nodeServer(
  handler: () => WebhookHandler,
  prepare?: (req: IncomingMessage) => Promise<void> | void,
): Promise<string> {
  const server = createServer(async (req, res) => {
    await prepare?.(req);
    await handler().node(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

let current: WebhookHandler | undefined;
let nodeUrl: Promise<string> | undefined;
const nodeDoor: Door = async (handler, { method = 'POST', headers, body }) => {
  current = handler;
  nodeUrl ??= nodeServer(() => current!);
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body, duplex: 'half' });
  return reply(await fetch(await nodeUrl, init));
};

/** Both doors, for `describe.each`. */
export const DOORS: [string, Door][] = [
  ['fetch', fetchDoor],
  ['node', nodeDoor],
];

/** A body that arrives in chunks with no content-length. */
export function chunked(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}
