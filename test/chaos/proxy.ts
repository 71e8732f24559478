/**
 * A seeded TCP proxy on loopback that misbehaves like a real network and a real edge proxy. It reads
 * each HTTP/1.1 request off the client's socket, picks a fault from (seed, call id, attempt number)
 * so a run replays the same faults whatever the interleaving, forwards the request to the upstream
 * (the shipped mock's loopback server) or not, and writes the answer back byte by byte, or breaks it.
 * It keeps counters, not records: per fault, and how long the client kept an abandoned request open
 * (the longest, and the first few held beyond the limit), so a long soak does not grow it.
 */
import { Agent, request as httpRequest } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { hashSeed, pickFault } from './faults.js';
import {
  htmlError,
  jsonError,
  type ParsedRequest,
  parseRequest,
  serialize,
  type UpstreamResponse,
  write,
} from './http1.js';
import type { Overruns } from './lag.js';
import { FAULTS, type Fault, type ProxyFigures } from './types.js';

export interface ChaosProxyOptions {
  /** The upstream's port on 127.0.0.1. */
  upstreamPort: number;
  seed: number;
  /** The share of requests that meet a fault. */
  faultRate: number;
  /** Every attempt's timeout: an abandoned request held open longer overran it. */
  timeoutMs: number;
  /** Where overruns are noted (and judged against the proxy's own event-loop stalls). */
  overruns: Overruns;
  /** Only these faults are played. @default every fault */
  faults?: readonly Fault[] | undefined;
}

export interface ChaosProxy {
  url: string;
  /** The counters since the start or the last reset. */
  figures(reset?: boolean): ProxyFigures;
  close(): Promise<void>;
}

/** What happened to one request, while it is in flight. */
interface Exchange {
  callId: string;
  attempt: number;
  fault: Fault;
  /** `performance.now()` when the whole request had arrived. */
  startedAt: number;
  /** The answer was written in full (or the proxy itself broke the connection). */
  done: boolean;
}

function emptyFigures(): ProxyFigures {
  const faults: Record<string, number> = {};
  for (const name of FAULTS) faults[name] = 0;
  return {
    requests: 0,
    forwarded: 0,
    faulted: 0,
    faults,
    abandoned: 0,
    heldMaxMs: 0,
    heldOverExplained: 0,
    heldOver: 0,
    heldOverExamples: [],
  };
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);
/**
 * How long past the attempt's timeout a `slow_request` reaches the mock: the longest the service
 * may still process a request after the client gave up on it is the timeout plus the maximum (and
 * the proxy's stalls), which the clients' `settleMs` must exceed (docs/reliability.md).
 */
export const SLOW_REQUEST_MIN_MS = 100;
export const SLOW_REQUEST_SPREAD_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the proxy on an ephemeral loopback port. */
export async function startChaosProxy(options: ChaosProxyOptions): Promise<ChaosProxy> {
  let figures = emptyFigures();
  const attemptsOf = new Map<string, number>();
  const sockets = new Set<Socket>();
  const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });
  let port = 0;
  let listening = true;
  let closed = false;

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    serveConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;

  /** Stops accepting for a moment: a client that connects now gets a real ECONNREFUSED. */
  function refuseFor(ms: number): void {
    if (!listening) return;
    listening = false;
    server.close();
    setTimeout(() => {
      if (closed) return;
      server.listen(port, '127.0.0.1', () => {
        listening = true;
      });
    }, ms);
  }

  function serveConnection(socket: Socket): void {
    let buffer: Buffer = Buffer.alloc(0);
    let busy = false;
    const pump = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        for (;;) {
          const parsed = parseRequest(buffer);
          if (!parsed) return;
          buffer = buffer.subarray(parsed.consumed);
          await handle(socket, parsed.request);
          if (socket.destroyed) return;
        }
      } finally {
        busy = false;
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      void pump();
    });
  }

  async function handle(socket: Socket, req: ParsedRequest): Promise<void> {
    const callId = req.headers['x-chaos-call'] ?? (req.path.includes('/oauth2/token') ? 'token' : 'other');
    const attempt = (attemptsOf.get(callId) ?? 0) + 1;
    attemptsOf.set(callId, attempt);
    const random = hashSeed(options.seed, `${callId}#${attempt}`);
    const fault: Fault = random() < options.faultRate ? pickFault(random, options.faults) : 'none';
    figures.requests++;
    if (fault !== 'none') {
      figures.faulted++;
      figures.faults[fault] = (figures.faults[fault] ?? 0) + 1;
    }
    const exchange: Exchange = { callId, attempt, fault, startedAt: performance.now(), done: false };
    // The client closed the connection before the answer was complete: it gave up on the attempt.
    const onClose = () => {
      if (exchange.done) return;
      exchange.done = true;
      const held = performance.now() - exchange.startedAt;
      figures.abandoned++;
      figures.heldMaxMs = Math.max(figures.heldMaxMs, held);
      options.overruns.note(
        `${callId}#${attempt} ${fault} (held ${Math.round(held)} ms)`,
        exchange.startedAt + options.timeoutMs,
        exchange.startedAt + held,
      );
    };
    socket.once('close', onClose);
    try {
      await play(socket, req, fault, random, exchange);
    } catch {
      exchange.done = true;
      socket.destroy();
    } finally {
      // Written in full: done. Destroyed: by the proxy (marked done first) or by the client (onClose).
      if (!socket.destroyed) {
        exchange.done = true;
        socket.off('close', onClose);
      }
    }
  }

  async function forward(req: ParsedRequest): Promise<UpstreamResponse> {
    figures.forwarded++;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    headers['content-length'] = String(req.body.length);
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: options.upstreamPort,
          method: req.method,
          path: req.path,
          headers,
          agent: upstreamAgent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const out: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined && !HOP_BY_HOP.has(name))
                out[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
          });
          res.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(req.body);
    });
  }

  async function play(
    socket: Socket,
    req: ParsedRequest,
    fault: Fault,
    random: () => number,
    exchange: Exchange,
  ): Promise<void> {
    // The proxy breaking the connection itself is not the client giving up.
    const reset = () => {
      exchange.done = true;
      socket.resetAndDestroy();
    };
    switch (fault) {
      case 'refused':
        refuseFor(40);
        reset();
        return;
      case 'reset_before':
        reset();
        return;
      case 'status_429':
        // The rate limiter refused it: never forwarded (a 429 promises nothing was processed).
        write(socket, jsonError(429, 'rate_limited', random() < 0.8 ? '0' : '1'));
        return;
      case 'html_502':
      case 'html_504':
      case 'status_503': {
        if (random() < 0.5) await forward(req);
        const status = fault === 'html_502' ? 502 : fault === 'html_504' ? 504 : 503;
        write(socket, status === 503 ? jsonError(503, 'service_unavailable', '0') : htmlError(status));
        return;
      }
      case 'slow_request': {
        // Held on its way in past the client's timeout, then processed all the same (a queue in a
        // load balancer): the service commits after the client gave up on the attempt.
        await sleep(options.timeoutMs + SLOW_REQUEST_MIN_MS + random() * SLOW_REQUEST_SPREAD_MS);
        write(socket, await forward(req));
        return;
      }
      default:
        break;
    }
    const res = await forward(req);
    if (socket.destroyed) return;
    switch (fault) {
      case 'reset_after':
        reset();
        return;
      case 'half_then_reset': {
        const whole = serialize(res);
        socket.write(whole.subarray(0, Math.max(1, whole.length >> 1)));
        await sleep(5);
        if (!socket.destroyed) reset();
        return;
      }
      case 'truncated_json':
        write(socket, { ...res, body: res.body.subarray(0, res.body.length >> 1) });
        return;
      case 'early_hints': {
        // Some streams end with the answer in time, the others outlast any attempt timeout.
        const hints = random() < 0.5 ? 3 : 1_000;
        for (let i = 0; i < hints && !socket.destroyed; i++) {
          socket.write('HTTP/1.1 103 Early Hints\r\nLink: </app.css>; rel=preload; as=style\r\n\r\n');
          await sleep(40);
        }
        if (!socket.destroyed) write(socket, res);
        return;
      }
      case 'drip': {
        const whole = serialize(res);
        const head = whole.indexOf('\r\n\r\n') + 4;
        socket.write(whole.subarray(0, head));
        const everyMs = random() < 0.5 ? 2 : 60;
        for (let at = head; at < whole.length && !socket.destroyed; at += 16) {
          await sleep(everyMs);
          if (!socket.destroyed) socket.write(whole.subarray(at, at + 16));
        }
        return;
      }
      default:
        write(socket, res);
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    figures(reset = false) {
      const o = options.overruns;
      o.judge();
      const out = {
        ...figures,
        heldMaxMs: Math.round(figures.heldMaxMs),
        heldOverExplained: o.explained,
        heldOver: o.unexplained,
        heldOverExamples: [...o.examples],
      };
      if (reset) {
        figures = emptyFigures();
        o.explained = 0;
      }
      return out;
    },
    close: async () => {
      closed = true;
      for (const socket of sockets) socket.destroy();
      upstreamAgent.destroy();
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
