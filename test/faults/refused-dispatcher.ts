/**
 * The `refused` fault cannot be played by the mock (a refused connection never reaches a server),
 * so it is played by the client's undici dispatcher: an attempt that asks for it is sent to a port
 * where nothing listens, and gets a real ECONNREFUSED from the kernel. Later attempts go through.
 */
import { createServer } from 'node:net';
import { Agent, type Dispatcher } from 'undici';

/** A loopback port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function readHeader(headers: Dispatcher.DispatchOptions['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
  }
  return undefined;
}

/**
 * An undici Agent (the SDK's keep-alive settings) that plays the `refused` fault: the first
 * `x-fault-attempts` attempts of a call with `x-fault: refused` go to a closed port.
 */
export async function faultDispatcher(): Promise<{ dispatcher: Dispatcher; close(): Promise<void> }> {
  const refusedOrigin = `http://127.0.0.1:${await closedPort()}`;
  const attempts = new Map<string, number>();
  const agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 10_000 } });
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    if (readHeader(opts.headers, 'x-fault') !== 'refused') return dispatch(opts, handler);
    const callId = readHeader(opts.headers, 'x-call-id') ?? 'anonymous';
    const attempt = (attempts.get(callId) ?? 0) + 1;
    attempts.set(callId, attempt);
    const faulty = attempt <= Number(readHeader(opts.headers, 'x-fault-attempts') ?? 1);
    return dispatch(faulty ? { ...opts, origin: refusedOrigin } : opts, handler);
  });
  return { dispatcher, close: () => agent.close() };
}
