import { HttpResponse, http } from 'msw';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { bounded, refreshAt } from '../../src/core/auth/strategies.js';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  PaymentsError,
  PermissionDeniedError,
} from '../../src/core/errors/api-errors.js';
import type { TokenEvent } from '../../src/core/observe/events.js';
import { caught } from '../helpers/caught.js';
import { apiError, TEST_CLIENT_SECRET, TOKEN_PREFIX, tokenEndpoint } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const Echo = z.looseObject({ token: z.string() });
const get = { method: 'GET', path: '/pos/v1/echo', retry: 'safe', response: Echo } as const;
const bearer = (request: Request) => (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');

// Echoes the token it was called with; answers 401 token_expired to tokens listed as expired.
function echoHandler(expired: Set<string> = new Set()) {
  return http.get('*/pos/v1/echo', ({ request }) =>
    expired.has(bearer(request))
      ? apiError(401, 'token_expired', 'The token has expired.')
      : HttpResponse.json({ token: bearer(request) }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describeTransports('auth: client credentials', (t) => {
  it('sends the client credentials form with every scope prefixed svc/', async () => {
    t.use(echoHandler());
    await t.client({ scopes: ['payments:read', 'svc/locations:read', 'pos:launch'] }).request(get);
    const [mint] = t.requests('POST', '/oauth2/token');
    expect(mint?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(mint?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'test-client-id',
      client_secret: TEST_CLIENT_SECRET,
      scope: 'svc/payments:read svc/locations:read svc/pos:launch',
    });
    expect(mint?.headers.authorization).toBeUndefined();
  });

  it('asks for the three minimum scopes by default', async () => {
    t.use(echoHandler());
    await t.client().request(get);
    const form = new URLSearchParams(t.requests('POST', '/oauth2/token')[0]?.body);
    expect(form.get('scope')).toBe('svc/payments:create svc/payments:read svc/locations:read');
  });

  it('100 concurrent first calls make exactly one token request and share its token', async () => {
    t.use(echoHandler());
    const client = t.client();
    const results = await Promise.all(Array.from({ length: 100 }, () => client.request(get)));
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
    expect(new Set(results.map((r) => r.token))).toEqual(new Set([`${TOKEN_PREFIX}-1`]));
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(100);
  });

  it('re-mints a token with expires_in 120 before it expires, without any 401', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-05-12T10:00:00Z'));
    const issued = new Map<string, number>();
    t.use(
      tokenEndpoint({
        override: (n) => {
          issued.set(`${TOKEN_PREFIX}-${n}`, Date.now());
          return HttpResponse.json({
            access_token: `${TOKEN_PREFIX}-${n}`,
            expires_in: 120,
            token_type: 'Bearer',
          });
        },
      }),
      http.get('*/pos/v1/echo', ({ request }) => {
        const at = issued.get(bearer(request));
        if (at === undefined || Date.now() >= at + 120_000) return apiError(401, 'token_expired');
        return HttpResponse.json({ token: bearer(request) });
      }),
    );
    const client = t.client();
    const statuses: number[] = [];
    client.on('response', (e) => statuses.push(e.status));
    const seen: string[] = [];
    for (const offsetS of [0, 30, 59, 61, 100, 119, 122, 181, 300]) {
      vi.setSystemTime(Date.parse('2026-05-12T10:00:00Z') + offsetS * 1000);
      seen.push((await client.request(get)).token);
    }
    expect(statuses.filter((s) => s === 401)).toEqual([]);
    expect(seen).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 4].map((n) => `${TOKEN_PREFIX}-${n}`));
  });

  it('a 401 token_expired drops the token, mints once more and replays the call once', async () => {
    const expired = new Set([`${TOKEN_PREFIX}-1`]);
    t.use(echoHandler(expired));
    const client = t.client();
    const tokens: TokenEvent[] = [];
    const retries: unknown[] = [];
    client.on('token', (e) => tokens.push(e));
    client.on('retry', (e) => retries.push(e));
    const res = await client.request({ ...get, options: { maxRetries: 0 } });
    expect(res.token).toBe(`${TOKEN_PREFIX}-2`);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(2);
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(2);
    expect(tokens.map((e) => e.action)).toEqual(['minted', 'invalidated', 'minted']);
    expect(tokens[1]).toEqual({ action: 'invalidated', reason: 'token_expired' });
    expect(retries).toEqual([]);
  });

  it('replays only once: a second 401 is thrown as AuthenticationError', async () => {
    t.use(http.get('*/pos/v1/echo', () => apiError(401, 'invalid_token', 'Bad signature.')));
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_token', requestId: 'req_401_invalid_token' });
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(2);
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(2);
  });

  it.each([
    [401, 'client_revoked', AuthenticationError],
    [403, 'insufficient_scope', PermissionDeniedError],
    [400, 'invalid_scope', BadRequestError],
  ] as const)('a %i %s from the API is thrown at once, typed', async (status, code, Class) => {
    t.use(http.get('*/pos/v1/echo', () => apiError(status, code)));
    const error = await caught(t.client().request(get));
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ status, code });
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(1);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
  });

  it.each([
    [400, 'invalid_scope', BadRequestError],
    [401, 'client_revoked', AuthenticationError],
  ] as const)(
    'a token endpoint %i %s is thrown at once, typed, without the secret',
    async (status, code, Class) => {
      t.use(
        tokenEndpoint({
          override: () => apiError(status, code, `Rejected client_secret=${TEST_CLIENT_SECRET}`),
        }),
        echoHandler(),
      );
      const error = await caught(t.client().request(get));
      expect(error).toBeInstanceOf(Class);
      expect(error).toMatchObject({ status, code });
      expect((error as Error).message).toMatch(/^Could not get an access token/);
      expect((error as Error).message).not.toContain(TEST_CLIENT_SECRET);
      expect(t.requests('POST', '/oauth2/token')).toHaveLength(1);
      expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(0);
    },
  );

  it('retries a token endpoint 503 like a read, then calls the API', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    t.use(
      tokenEndpoint({ override: (n) => (n === 1 ? apiError(503, 'service_unavailable') : undefined) }),
      echoHandler(),
    );
    const res = await t.client().request(get);
    expect(res.token).toBe(`${TOKEN_PREFIX}-2`);
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(2);
  });

  it('a failed mint is not cached: the next call mints again', async () => {
    t.use(
      tokenEndpoint({ override: (n) => (n === 1 ? apiError(400, 'invalid_request') : undefined) }),
      echoHandler(),
    );
    const client = t.client();
    await expect(client.request(get)).rejects.toBeInstanceOf(PaymentsError);
    await expect(client.request(get)).resolves.toEqual({ token: `${TOKEN_PREFIX}-2` });
  });

  it('does not send a bearer token to public endpoints', async () => {
    t.use(http.get('*/pos/v1/.well-known/openapi.json', () => HttpResponse.json({ openapi: '3.1.0' })));
    await t.client().specs.openapi();
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(0);
    expect(t.requests('GET', '/pos/v1/.well-known/openapi.json')[0]?.headers.authorization).toBeUndefined();
  });
});

describeTransports('auth: access token instead of client credentials', (t) => {
  it('sends a static token and never calls the token endpoint', async () => {
    t.use(echoHandler());
    const client = t.client({
      clientId: undefined,
      clientSecret: undefined,
      accessToken: 'user_token_ABCDEF',
    });
    await expect(client.request(get)).resolves.toEqual({ token: 'user_token_ABCDEF' });
    expect(t.requests('POST', '/oauth2/token')).toHaveLength(0);
  });

  it('asks a token function again once after token_expired', async () => {
    t.use(echoHandler(new Set(['user_token_1'])));
    let n = 0;
    const client = t.client({ accessToken: async () => `user_token_${++n}` });
    await expect(client.request(get)).resolves.toEqual({ token: 'user_token_2' });
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(2);
  });

  it('a static token that expired is thrown, not replayed', async () => {
    t.use(echoHandler(new Set(['user_token_1'])));
    const client = t.client({ accessToken: 'user_token_1' });
    await expect(client.request(get)).rejects.toMatchObject({ status: 401, code: 'token_expired' });
    expect(t.requests('GET', '/pos/v1/echo')).toHaveLength(1);
  });
});

it('refreshAt: 60 s before expiry, or halfway through a shorter lifetime', () => {
  const cases: [number, number][] = [
    [3_600_000, 3_540_000],
    [120_000, 60_000],
    [90_000, 45_000],
    [10_000, 5_000],
  ];
  for (const [lifetime, expected] of cases) expect(refreshAt(0, lifetime)).toBe(expected);
});

describeTransports('auth: token function errors', (t) => {
  it('a token function that throws gives a PaymentsError with the cause, and nothing is sent', async () => {
    const failure = new Error('session store down');
    const client = t.client({
      accessToken: () => {
        throw failure;
      },
    });
    const error = await caught(client.request(get));
    expect(error).toBeInstanceOf(PaymentsError);
    expect((error as Error).cause).toBe(failure);
    expect(t.requests()).toEqual([]);
  });
});

it('bounded: one caller leaves a shared token wait by its abort or its deadline; the wait goes on', async () => {
  let settle: (token: string) => void = () => {};
  const shared = new Promise<string>((resolve) => {
    settle = resolve;
  });
  expect(bounded(shared)).toBe(shared);
  const aborted = new AbortController();
  aborted.abort();
  await expect(bounded(shared, aborted.signal)).rejects.toBeInstanceOf(APIUserAbortError);
  const leaving = new AbortController();
  const left = bounded(shared, leaving.signal);
  const late = bounded(shared, undefined, Date.now() + 10);
  const staying = bounded(shared, new AbortController().signal, Date.now() + 60_000);
  leaving.abort();
  await expect(left).rejects.toBeInstanceOf(APIUserAbortError);
  await expect(late).rejects.toThrow(
    new APIConnectionTimeoutError('The call reached its deadline waiting for an access token.'),
  );
  settle('tok');
  await expect(staying).resolves.toBe('tok');
});
