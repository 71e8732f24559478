/**
 * A loopback node:http stand-in for the service that misbehaves on command. A call asks for a fault
 * with headers it sends through the public `RequestOptions.headers`:
 * - `x-call-id`: identifies the call across its attempts (side effects are counted per call);
 * - `x-fault`: a {@link FaultName};
 * - `x-fault-attempts`: how many attempts of the call get the fault (default 1: only the first).
 *
 * Orders are de-duplicated by `Idempotency-Key` as the service does (the same key returns the first
 * response and creates nothing), so a retry with the same key never counts twice.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, FAULT_NAMES, FAULTS, type FaultName, misbehave, type NormalResponse } from './faults.js';

/** What the service did for one call, over all its attempts. */
export interface SideEffects {
  orders: number;
  payments: number;
  refunds: number;
  voids: number;
  /** Attempts that reached the server. */
  attempts: number;
  /** The distinct `Idempotency-Key` values the call's attempts carried. */
  idempotencyKeys: Set<string>;
}

export interface FaultServer {
  /** `http://127.0.0.1:<port>`: the API root and the token issuer. */
  readonly url: string;
  /** Token requests served. */
  readonly mints: number;
  /** Side effects of the call with this `x-call-id`. */
  effects(callId: string): SideEffects;
  /** Every call id the server saw. */
  callIds(): string[];
  close(): Promise<void>;
}

/** What a route gets: the path's captures, the body, and the call's counters. */
interface RouteInput {
  ids: string[];
  body: string;
  key: string | undefined;
  calls: SideEffects;
  now: string;
}
type Route = [method: string, pattern: RegExp, answer: (input: RouteInput) => NormalResponse];

function isFault(value: unknown): value is FaultName {
  return typeof value === 'string' && (FAULT_NAMES as readonly string[]).includes(value);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Starts the fault server on 127.0.0.1 (a free port). */
export async function startFaultServer(): Promise<FaultServer> {
  const effects = new Map<string, SideEffects>();
  const ordersByKey = new Map<string, { body: string; response: NormalResponse }>();
  const voided = new Map<string, NormalResponse>();
  let mints = 0;

  const effectsOf = (callId: string): SideEffects => {
    let entry = effects.get(callId);
    if (!entry) {
      entry = { orders: 0, payments: 0, refunds: 0, voids: 0, attempts: 0, idempotencyKeys: new Set() };
      effects.set(callId, entry);
    }
    return entry;
  };

  const routes: Route[] = [
    [
      'POST',
      /^\/oauth2\/token$/,
      () => {
        mints++;
        return {
          status: 200,
          body: { access_token: `fault-token-${mints}`, expires_in: 3600, token_type: 'Bearer' },
        };
      },
    ],
    ['POST', /^\/pos\/v1\/orders$/, createOrder],
    [
      'GET',
      /^\/pos\/v1\/orders\/([^/]+)$/,
      ({ ids, now }) => ({ status: 200, body: orderBody(ids[0]!, now) }),
    ],
    [
      'POST',
      /^\/pos\/v1\/orders\/([^/]+)\/payments$/,
      ({ ids, body, calls, now }) => {
        const { amount_cents } = JSON.parse(body) as { amount_cents: number };
        calls.payments++;
        const payment = {
          payment_id: randomUUID(),
          order_id: ids[0],
          status: 'pending',
          amount_cents,
          method: 'card',
        };
        return { status: 201, body: { ...payment, created_at: now } };
      },
    ],
    ['POST', /^\/pos\/v1\/orders\/([^/]+)\/payments\/([^/]+)\/void$/, voidPayment],
    [
      'POST',
      /^\/pos\/v1\/orders\/([^/]+)\/payments\/([^/]+)\/refunds$/,
      ({ ids, body, calls, now }) => {
        const { amount_cents, reason } = JSON.parse(body) as { amount_cents: number; reason?: string };
        calls.refunds++;
        const refund = { refund_id: randomUUID(), payment_id: ids[1], order_id: ids[0], status: 'pending' };
        return { status: 201, body: { ...refund, amount_cents, reason: reason ?? null, created_at: now } };
      },
    ],
  ];

  // As the service: the same key returns the first response and creates nothing; another body is a conflict.
  function createOrder({ body, key, calls, now }: RouteInput): NormalResponse {
    const seen = key === undefined ? undefined : ordersByKey.get(key);
    if (seen) return seen.body === body ? seen.response : apiError(409, 'idempotency_conflict');
    const { total_cents } = JSON.parse(body) as { total_cents: number };
    calls.orders++;
    const response = {
      status: 201,
      body: { order_id: randomUUID(), status: 'open', total_cents, created_at: now },
    };
    if (key) ordersByKey.set(key, { body, response });
    return response;
  }

  // Void is idempotent: a second void answers as the first and changes nothing.
  function voidPayment({ ids, calls, now }: RouteInput): NormalResponse {
    const paymentId = ids[1]!;
    const earlier = voided.get(paymentId);
    if (earlier) return earlier;
    calls.voids++;
    const response = { status: 200, body: { payment_id: paymentId, status: 'voided', voided_at: now } };
    voided.set(paymentId, response);
    return response;
  }

  /** Applies the request's side effect and returns the response it earns. */
  function process(req: IncomingMessage, body: string, calls: SideEffects): NormalResponse {
    const url = req.url ?? '/';
    for (const [method, pattern, route] of routes) {
      const match = req.method === method ? pattern.exec(url) : null;
      if (!match) continue;
      if (url !== '/oauth2/token' && !/^Bearer \S+$/.test(header(req, 'authorization') ?? '')) {
        return apiError(401, 'missing_token');
      }
      const input = { ids: match.slice(1), body, key: header(req, 'idempotency-key'), calls };
      return route({ ...input, now: new Date().toISOString() });
    }
    return apiError(404, 'not_found');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const callId = header(req, 'x-call-id') ?? 'anonymous';
    const calls = effectsOf(callId);
    calls.attempts++;
    const key = header(req, 'idempotency-key');
    if (key) calls.idempotencyKeys.add(key);
    const fault = header(req, 'x-fault');
    const faultyAttempts = Number(header(req, 'x-fault-attempts') ?? 1);
    // The refused attempts are the dispatcher's (refused-dispatcher.ts): whatever arrives here is past them.
    const faulty = isFault(fault) && fault !== 'refused' && calls.attempts <= faultyAttempts;
    if (!faulty) return answer(res, process(req, body, calls));
    const normal = FAULTS[fault].processed ? process(req, body, calls) : { status: 0, body: null };
    misbehave(fault, res, normal);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mints() {
      return mints;
    },
    effects: effectsOf,
    callIds: () => [...effects.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function apiError(status: number, error: string): NormalResponse {
  return { status, body: { error, message: `Injected ${error}.`, request_id: 'req_fault' } };
}

function orderBody(orderId: string, now: string): Record<string, unknown> {
  return {
    order_id: orderId,
    location_id: '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11',
    status: 'pending',
    total_cents: 12_500,
    description: 'Brake service',
    external_reference: 'INV-1001',
    customer_name: 'Dana Driver',
    payments: [
      { payment_id: randomUUID(), status: 'pending', amount_cents: 12_500, method: 'card', created_at: now },
    ],
    created_at: now,
    updated_at: now,
  };
}
