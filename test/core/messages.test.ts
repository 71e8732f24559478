// Error messages that tell a partner what to fix: which scope, which credential option, which host.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  AuthenticationError,
  type CallError,
  DEFAULT_SCOPES,
  PaymentsClient,
  type PaymentsClientOptions,
  PaymentsError,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { expectCaught, leaked, rendered } from '../helpers/leaks.js';

const ORDER = '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f';
const PAY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const SECRET = 'sk_test_messages_secret_42';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A client whose wire answers `answer(path)` after a successful token mint. */
function client(answer: (path: string) => Response, options: PaymentsClientOptions = {}) {
  return new PaymentsClient({
    clientId: 'client-id',
    clientSecret: SECRET,
    baseUrl: 'https://api.payments.test',
    authUrl: 'https://auth.payments.test',
    maxRetries: 0,
    reconcile: 'off',
    fetch: async (input) => {
      const { pathname } = new URL(String(input instanceof Request ? input.url : input));
      if (pathname === '/oauth2/token') return json(200, { access_token: 'at_messages_1', expires_in: 3600 });
      return answer(pathname);
    },
    ...options,
  });
}

const insufficientScope = () =>
  json(403, { error: 'insufficient_scope', message: 'Missing scope', request_id: 'req_scope' });
const refund = (c: PaymentsClient) =>
  c.refunds.create(ORDER, PAY, { amount_cents: 100 }).catch((e: unknown) => e as PermissionDeniedError);

describe('insufficient_scope names the scope and where it goes', () => {
  it('with the default scopes: add it to `scopes`; the defaults exclude payments:refund and pos:launch', async () => {
    const error = await refund(client(insufficientScope));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.code).toBe('insufficient_scope');
    expect(error.message).toContain(
      "Add svc/payments:refund to the client's `scopes` option (new PaymentsClient({ scopes: [...DEFAULT_SCOPES, 'svc/payments:refund'] }))",
    );
    expect(error.message).toContain('exclude svc/payments:refund and svc/pos:launch');
    expect(error.message).toContain(DEFAULT_SCOPES.join(', '));
  });

  it('names each endpoint its own scope (a launch link needs svc/pos:launch)', async () => {
    const c = client(insufficientScope);
    const error = await c.launchTokens
      .create({ location_id: ORDER })
      .catch((e: unknown) => e as PermissionDeniedError);
    expect(error.message).toContain('Add svc/pos:launch to');
  });

  it('when the client already asks for it, the API client itself lacks the grant', async () => {
    const error = await refund(client(insufficientScope, { scopes: [...DEFAULT_SCOPES, 'payments:refund'] }));
    expect(error.message).toContain(
      'The client already asks for svc/payments:refund in `scopes`, so the API client itself lacks it',
    );
  });

  it('with an accessToken, the token itself lacks it', async () => {
    const error = await refund(
      client(insufficientScope, {
        accessToken: 'at_static_token_1',
        clientId: undefined,
        clientSecret: undefined,
      }),
    );
    expect(error.message).toContain('The access token you pass (accessToken) lacks svc/payments:refund');
  });

  it('other errors are left as they were', async () => {
    const denied = () =>
      json(403, { error: 'location_out_of_scope', message: 'Not your location', request_id: 'r' });
    const error = await refund(client(denied));
    expect(error.message).toBe('403 Not your location (location_out_of_scope, request_id r)');
  });
});

describe('invalid_client names the credential options and variables', () => {
  it('says clientId / clientSecret and PAYMENTS_CLIENT_ID / PAYMENTS_CLIENT_SECRET, without the secret', async () => {
    const c = new PaymentsClient({
      clientId: 'client-id',
      clientSecret: SECRET,
      baseUrl: 'https://api.payments.test',
      fetch: async () => json(401, { error: 'invalid_client', message: 'Client authentication failed' }),
    });
    const error = await c.orders.get(ORDER).catch((e: unknown) => e as AuthenticationError);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('invalid_client');
    expect(error.message).toMatch(/^Could not get an access token: 401 Client authentication failed/);
    for (const name of ['`clientId`', '`clientSecret`', 'PAYMENTS_CLIENT_ID', 'PAYMENTS_CLIENT_SECRET'])
      expect(error.message).toContain(name);
    expect(leaked(rendered(error), [SECRET])).toEqual([]);
    // The control: the same rendering of an error of the same class carrying the secret in a field
    // (the error's own toJSON and inspect, which leave out the cause) shows it.
    const planted = Object.assign(Object.create(Object.getPrototypeOf(error)), error, { sent: SECRET });
    expectCaught(rendered(planted), SECRET);
  });
});

describe('other messages', () => {
  it('a connection error names the host it tried', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const c = new PaymentsClient({
      accessToken: 'at_conn_test',
      baseUrl: 'http://127.0.0.1:1',
      maxRetries: 0,
    });
    const error = await c.orders.get(ORDER).catch((e: unknown) => e as APIConnectionError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toContain('GET /pos/v1/orders/');
    expect(error.message).toContain('could not connect to 127.0.0.1:1; nothing was sent');
  });

  it('an unknown outcome of a 1-cent payment says "1 cent", not "1 cents"', async () => {
    const c = client(() => json(500, { error: 'internal_error', message: 'boom', request_id: 'r' }));
    const error = await c.payments
      .create(ORDER, { method: 'card', amount_cents: 1 })
      .catch((e: unknown) => e as CallError);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toContain('look for a payment of 1 cent before creating another');
    const two = await client(() => json(500, { error: 'internal_error', message: 'boom' }))
      .payments.create(ORDER, { method: 'card', amount_cents: 2 })
      .catch((e: unknown) => e as PaymentsError);
    expect(two.message).toContain('a payment of 2 cents');
  });
});

describe('PaymentsError.is across realms', () => {
  it('recognizes a PaymentsError made in another realm, where instanceof fails', () => {
    const foreign = runInNewContext(`
      class PaymentsError extends Error { constructor(m) { super(m); this.name = 'PaymentsError'; this.outcomeUnknown = false; } }
      new PaymentsError('from a vm context');
    `);
    expect(foreign instanceof PaymentsError).toBe(false);
    expect(foreign instanceof Error).toBe(false);
    expect(PaymentsError.is(foreign)).toBe(true);
  });

  it('refuses a plain error of another realm, a look-alike object, and non-errors', () => {
    expect(PaymentsError.is(runInNewContext(`new Error('plain')`))).toBe(false);
    expect(PaymentsError.is({ name: 'PaymentsError', message: 'x', outcomeUnknown: false })).toBe(false);
    expect(PaymentsError.is(new Error('x'))).toBe(false);
    expect(PaymentsError.is(undefined)).toBe(false);
    expect(PaymentsError.is('PaymentsError')).toBe(false);
  });

  it('accepts every error of this realm the SDK throws', async () => {
    const error = await refund(client(insufficientScope));
    expect(PaymentsError.is(error)).toBe(true);
  });
});

describe('first-hour messages', () => {
  it('a payment without `method` says required, as docs/errors.md promises; a wrong one says what it must be', async () => {
    const c = client(() => json(500, {}));
    const missing = await c.payments
      .create(ORDER, { amount_cents: 100 } as never)
      .catch((e: unknown) => e as RequestValidationError);
    expect(missing).toBeInstanceOf(RequestValidationError);
    expect(missing.issues).toEqual([{ path: ['method'], message: 'required' }]);
    const wrong = await c.payments
      .create(ORDER, { method: 'cash', amount_cents: 100 } as never)
      .catch((e: unknown) => e as RequestValidationError);
    expect(wrong.issues).toEqual([{ path: ['method'], message: "must be 'card'" }]);
  });

  it('a revoked client (401 client_revoked) is told to create a new API client, at the token endpoint and the API', async () => {
    const revoked = () => json(401, { error: 'client_revoked', message: 'Client revoked', request_id: 'r' });
    const minting = new PaymentsClient({
      clientId: 'client-id',
      clientSecret: SECRET,
      baseUrl: 'https://api.payments.test',
      maxRetries: 0,
      fetch: async () => revoked(),
    });
    const atMint = await minting.orders.get(ORDER).catch((e: unknown) => e as AuthenticationError);
    expect(atMint.code).toBe('client_revoked');
    expect(atMint.message).toContain('create a new API client in the admin portal');
    const atApi = await client(revoked)
      .orders.get(ORDER)
      .catch((e: unknown) => e as AuthenticationError);
    expect(atApi.code).toBe('client_revoked');
    expect(atApi.message).toContain('create a new API client in the admin portal');
  });

  it('a client secret with a trailing line break is named (never quoted) when the token endpoint refuses it', async () => {
    const refusing = (clientSecret: string) =>
      new PaymentsClient({
        clientId: 'client-id',
        clientSecret,
        baseUrl: 'https://api.payments.test',
        maxRetries: 0,
        fetch: async () => json(401, { error: 'invalid_client', message: 'Client authentication failed' }),
      });
    const padded = await refusing(`${SECRET}\n`)
      .orders.get(ORDER)
      .catch((e: unknown) => e as AuthenticationError);
    expect(padded.message).toContain('`clientSecret` has whitespace at an end');
    expect(JSON.stringify({ message: padded.message, error: padded })).not.toContain(SECRET);
    // The control: the same refusal of a clean secret says nothing of whitespace.
    const clean = await refusing(SECRET)
      .orders.get(ORDER)
      .catch((e: unknown) => e as AuthenticationError);
    expect(clean.message).not.toContain('whitespace');
  });
});
