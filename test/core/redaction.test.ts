import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { PaymentsClient } from '../../src/client.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID } from '../helpers/fixtures.js';
import { apiError, TEST_CLIENT_SECRET, TOKEN_PREFIX, tokenEndpoint } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const bearer = (request: Request) => request.headers.get('authorization') ?? '';

// Collects every line, event payload and error rendering a client produces.
function observe(client: PaymentsClient, out: string[]) {
  for (const name of ['request', 'response', 'retry', 'token'] as const) {
    client.on(name, (payload: unknown) => out.push(JSON.stringify(payload)));
  }
}

function logger(out: string[]) {
  const write = (...args: unknown[]) => out.push(args.map(String).join(' '));
  return { debug: write, info: write, warn: write, error: write };
}

function renderError(error: unknown, out: string[]) {
  expect(error).toBeInstanceOf(Error);
  out.push((error as Error).message, JSON.stringify(error), inspect(error, { depth: 5 }), String(error));
}

describeTransports('redaction', (t) => {
  it('no log line, event, error or inspect output carries the client secret or an access token', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const out: string[] = [];
    let tokenCalls = 0;
    t.use(
      // The first mint is refused by a server that echoes the form it got.
      tokenEndpoint({
        override: (n) => {
          tokenCalls = n;
          return n === 1
            ? apiError(400, 'invalid_scope', `bad scope for client_id=x&client_secret=${TEST_CLIENT_SECRET}`)
            : undefined;
        },
      }),
      // A 401 that quotes the Authorization header, then a 500 that quotes the bare token.
      http.get('*/pos/v1/echo', ({ request }) => {
        const token = bearer(request).replace('Bearer ', '');
        if (token.endsWith('-2')) return apiError(401, 'token_expired', `expired: ${bearer(request)}`);
        return apiError(500, 'internal_error', `upstream rejected ${token} for ${TEST_CLIENT_SECRET}`);
      }),
      http.post('*/pos/v1/orders/:id/payments', ({ request }) =>
        HttpResponse.text(`gateway saw token ${bearer(request).slice(7)}`, {
          status: 503,
          headers: { 'retry-after': '0' },
        }),
      ),
      http.get('*/pos/v1/limited', ({ request }) =>
        apiError(429, 'rate_limit_exceeded', `limit for ${bearer(request).slice(7)}`, {
          headers: { 'Retry-After': '0' },
        }),
      ),
    );
    const client = t.client({ logger: logger(out), logLevel: 'debug', maxRetries: 1 });
    observe(client, out);
    const get = (path: string) =>
      client.request({ method: 'GET', path, retry: 'safe', response: z.looseObject({}) });

    renderError(await caught(get('/pos/v1/echo')), out);
    renderError(await caught(get('/pos/v1/echo')), out);
    renderError(await caught(client.payments.create(ORDER_ID, { method: 'card', amount_cents: 1 })), out);
    renderError(await caught(get('/pos/v1/limited')), out);
    out.push(inspect(client, { depth: 10 }), JSON.stringify(client));

    // The scenario really exercised auth failures, a replay, retries and API errors.
    expect(tokenCalls).toBe(3);
    expect(out.some((l) => l.includes('"action":"invalidated"'))).toBe(true);
    expect(out.some((l) => l.includes('outcome is unknown'))).toBe(true);
    expect(out.filter((l) => l.includes('"delayMs"')).length).toBeGreaterThanOrEqual(2);
    const leaks = out.filter((line) => line.includes(TEST_CLIENT_SECRET) || line.includes(TOKEN_PREFIX));
    expect(leaks).toEqual([]);
  });
});
