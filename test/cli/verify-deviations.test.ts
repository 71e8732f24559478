/**
 * `partner-payments verify` against the mock behind a proxy on loopback that plants one deviation
 * at a time: a changed status, a dropped field, 200 to a write, an error without its request_id, a
 * 429 without Retry-After, a broken webhook signature. Each is reported as a deviation with its spec
 * section (and only it), and verify exits 1.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveFetch } from '../../src/testing/index.js';
import { freePort, run, serveMock, type Tamper, tamperingProxy } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const NIL = '00000000-0000-4000-8000-000000000000';

// Whole verify runs (about 50 calls and a burst each) on a machine that may be busy.
vi.setConfig({ testTimeout: 60_000 });

/** Runs verify through a proxy that applies `tamper`; returns the deviation lines and the exit code. */
async function verifyThrough(tamper: Tamper, extra: string[] = [], env: Record<string, string> = {}) {
  const served = await serveMock();
  closers.push(() => served.close());
  const proxy = await tamperingProxy(served.url, tamper);
  closers.push(() => proxy.close());
  const result = await run(['verify', ...extra], {
    ...served.env,
    PAYMENTS_BASE_URL: proxy.url,
    PAYMENTS_AUTH_URL: proxy.url,
    ...env,
  });
  return { ...result, deviations: result.lines.filter((l) => l.startsWith('DEVIATION')), served };
}

describe('verify reports each planted deviation with its spec section', () => {
  it('a changed status: an unknown order answers 410 instead of 404', async () => {
    const { code, deviations } = await verifyThrough((req, res) =>
      req.method === 'GET' && req.path === `/pos/v1/orders/${NIL}` && res.status === 404
        ? { status: 410 }
        : undefined,
    );
    expect(code).toBe(1);
    expect(deviations).toHaveLength(1);
    expect(deviations[0]).toMatch(
      /^DEVIATION +4\.2 +an unknown order → 404 order_not_found: expected 404 order_not_found, got 410 order_not_found \(request_id req_\w+\)$/,
    );
  });

  it('a dropped field: the created payment lacks created_at', async () => {
    const { code, deviations, served } = await verifyThrough((req, res) => {
      if (req.method !== 'POST' || !/\/payments$/.test(req.path) || res.status !== 201) return undefined;
      const { created_at: _, ...rest } = res.json as Record<string, unknown>;
      return { json: rest };
    });
    expect(code).toBe(1);
    expect(deviations).toHaveLength(1);
    expect(deviations[0]).toMatch(
      /^DEVIATION +4\.3 +POST \/pos\/v1\/orders\/\{id\}\/payments → 201 .*: created_at: missing/,
    );
    // The payment was still voided: verify found it in the raw answer.
    expect(served.mock.snapshot().payments.map((p) => p.status)).toEqual(['voided']);
  });

  it('200 to a write: order creation answers 200 instead of 201', async () => {
    const { code, deviations } = await verifyThrough((req, res) =>
      req.method === 'POST' && req.path === '/pos/v1/orders' && res.status === 201
        ? { status: 200 }
        : undefined,
    );
    expect(code).toBe(1);
    expect(deviations.length).toBeGreaterThanOrEqual(1);
    for (const d of deviations) expect(d).toMatch(/^DEVIATION +4\.1(1)? +.*: expected 201, got 200/);
    expect(deviations[0]).toMatch(/4\.1 +POST \/pos\/v1\/orders with an Idempotency-Key → 201/);
  });

  it('an error envelope without request_id', async () => {
    const { code, deviations } = await verifyThrough((req, res) => {
      if (req.path !== `/pos/v1/locations/${NIL}`) return undefined;
      const { request_id: _, ...rest } = res.json as Record<string, unknown>;
      return { json: rest };
    });
    expect(code).toBe(1);
    expect(deviations).toEqual([
      expect.stringMatching(
        /^DEVIATION +4\.9 +an unknown location → 404 location_not_found: error envelope \(7\): request_id: missing/,
      ),
    ]);
  });

  it('a 429 without its Retry-After header is named (sections 7, 8)', async () => {
    const served = await serveMock();
    closers.push(() => served.close());
    const proxy = await serveFetch(async (request) => {
      const url = new URL(request.url);
      const body = request.method === 'GET' ? undefined : await request.text();
      const headers = new Headers(request.headers);
      for (const name of ['host', 'connection', 'content-length']) headers.delete(name);
      const answer = await fetch(served.url + url.pathname + url.search, {
        method: request.method,
        headers,
        body,
      });
      const out = new Headers(answer.headers);
      if (answer.status === 429) out.delete('retry-after');
      out.delete('content-length');
      return new Response(await answer.text(), { status: answer.status, headers: out });
    });
    closers.push(() => proxy.close());
    const { code, lines } = await run(['verify'], {
      ...served.env,
      PAYMENTS_BASE_URL: proxy.url,
      PAYMENTS_AUTH_URL: proxy.url,
    });
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('DEVIATION'))).toEqual([
      expect.stringMatching(/^DEVIATION +7, 8 +a burst of reads .*: no Retry-After header/),
    ]);
  });

  it('a broken webhook signature on a real delivery', async () => {
    const served = await serveMock();
    closers.push(() => served.close());
    const verifyUrl = `http://127.0.0.1:${await freePort()}/webhooks`;
    // The mock delivers to this proxy, which flips one hex digit of the signature on the way.
    const relay = await serveFetch(async (request) => {
      const body = await request.text();
      const signature = request.headers.get('x-service-signature') ?? '';
      const broken = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
      const answer = await fetch(verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': broken },
        body,
      });
      return new Response(null, { status: answer.status });
    });
    closers.push(() => relay.close());
    const partnerId = served.mock.fixtures.partners[0]!.partnerId;
    const { signing_secret } = served.mock.webhooks.register({ partnerId, url: `${relay.url}/hooks` });
    const { code, lines } = await run(
      ['verify', '--webhooks', verifyUrl, '--webhook-wait', '10', '--no-rate-limit'],
      {
        ...served.env,
        PAYMENTS_WEBHOOK_SECRET: signing_secret,
      },
    );
    expect(code).toBe(1);
    expect(lines.filter((l) => l.startsWith('DEVIATION'))).toEqual([
      expect.stringMatching(
        /^DEVIATION +6\.4 +every delivery carries X-Service-Signature .*: payment\.voided evt_[\w-]+: the signature does not verify with the secret$/,
      ),
    ]);
  });
});
