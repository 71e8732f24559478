// Verify's items of spec section 5 (the token answer and every auth failure the partner can
// provoke: wrong secret, unknown scope, no token, a malformed token, a token without the scope) and
// of 4.10 (the two descriptions, without authentication).
import { randomBytes } from 'node:crypto';
import { PaymentsClient } from '../../../index.js';
import { ANY, makeClient } from '../sdk.js';
import { shapeProblems, TOKEN } from './contract.js';
import { type Ctx, type Json, NIL } from './suite.js';

/** A read of one location, or (without that scope) of an order: the cheapest authenticated call. */
function anyRead(client: PaymentsClient) {
  return client.request({
    method: 'GET',
    path: '/pos/v1/locations',
    query: { limit: 1 },
    retry: 'safe',
    response: ANY,
  });
}

export async function authItems(ctx: Ctx): Promise<void> {
  const { suite, target } = ctx;
  const minted = suite.rec.find(
    (e) => e.method === 'POST' && e.path.endsWith('/oauth2/token') && e.status === 200,
  );
  if (minted) {
    const token = minted.json as Json;
    const problems = shapeProblems(token, TOKEN);
    if (problems.length === 0 && token.expires_in !== 3600) {
      problems.push(`expires_in is ${token.expires_in}, expected 3600 (spec 8: one hour)`);
    }
    if (problems.length === 0 && !/^bearer$/i.test(token.token_type))
      problems.push('token_type is not Bearer');
    suite.report(
      '5.3',
      'token request → 200 with access_token, expires_in 3600, token_type Bearer',
      problems,
    );
  }

  const wrong = makeClient({
    ...target,
    clientSecret: `verify-wrong-secret-${randomBytes(8).toString('hex')}`,
  });
  await suite.probe(
    '5.2',
    'wrong client secret → 401 invalid_client (OAuth 2.0, RFC 6749 5.2)',
    () => anyRead(wrong),
    {
      status: [401, 400],
      code: 'invalid_client',
    },
  );

  const unknownScope = makeClient(target, { scopes: ['svc/verify:unknown-scope'] });
  await suite.probe(
    '5.9',
    'token request for an unknown scope → 400 invalid_scope',
    () => anyRead(unknownScope),
    {
      status: 400,
      code: 'invalid_scope',
    },
  );

  await suite.probe(
    '5.9',
    'no Authorization header → 401 missing_token',
    () =>
      ctx.main.request({
        method: 'GET',
        path: '/pos/v1/locations',
        query: { limit: 1 },
        auth: false,
        retry: 'safe',
        response: ANY,
      }),
    { status: 401, code: 'missing_token' },
  );

  const forged = new PaymentsClient({
    accessToken: `verify-not-a-token-${randomBytes(8).toString('hex')}`,
    baseUrl: target.baseUrl,
    maxRetries: 0,
    timeoutMs: target.timeoutMs,
    ...(target.fetch ? { fetch: target.fetch } : {}),
  });
  await suite.probe('5.9', 'a malformed access token → 401 invalid_token', () => anyRead(forged), {
    status: 401,
    code: 'invalid_token',
  });

  // A token of one scope on an endpoint of another.
  const locationsOnly = ctx.byScope.get('svc/locations:read');
  const readOnly = ctx.byScope.get('svc/payments:read');
  if (locationsOnly) {
    await suite.probe(
      '5.9',
      'a token without svc/payments:read on GET /pos/v1/orders/{id} → 403 insufficient_scope',
      () => locationsOnly.orders.get(NIL),
      { status: 403, code: 'insufficient_scope' },
    );
  } else if (readOnly) {
    await suite.probe(
      '5.9',
      'a token without svc/locations:read on GET /pos/v1/locations → 403 insufficient_scope',
      () => readOnly.locations.list({ limit: 1 }),
      { status: 403, code: 'insufficient_scope' },
    );
  } else {
    suite.skip(
      '5.9',
      'a token without the scope → 403 insufficient_scope',
      'the client has neither read scope',
    );
  }
}

/** 4.10: the OpenAPI and AsyncAPI descriptions, without a token (404 spec_not_available is allowed). */
export async function describedItems(ctx: Ctx): Promise<void> {
  const { suite, main } = ctx;
  const version = (field: string, prefix: string) => (json: Json) =>
    typeof json?.[field] === 'string' && json[field].startsWith(prefix)
      ? []
      : [`${field} is ${JSON.stringify(json?.[field])}, expected ${prefix}.x`];
  await suite.probe(
    '4.10',
    'GET /pos/v1/.well-known/openapi.json without a token → 200 OpenAPI 3.1 (or 404 spec_not_available)',
    () => main.specs.openapi(),
    { status: [200, 404], code: 'spec_not_available', check: version('openapi', '3.1') },
  );
  await suite.probe(
    '4.10',
    'GET /pos/v1/.well-known/asyncapi.json without a token → 200 AsyncAPI 2.6 (or 404 spec_not_available)',
    () => main.specs.asyncapi(),
    { status: [200, 404], code: 'spec_not_available', check: version('asyncapi', '2.6') },
  );
}

/** 4.13: registration refuses a token without svc/webhooks:subscribe (nothing is registered). */
export async function registrationItem(ctx: Ctx): Promise<void> {
  const { suite } = ctx;
  const title =
    'POST /admin/v1/partners/{id}/webhook-endpoints without svc/webhooks:subscribe → 403 insufficient_scope';
  const client = ctx.byScope.get('svc/locations:read') ?? ctx.byScope.get('svc/payments:read');
  if (!client) return suite.skip('4.13', title, 'the client has neither read scope');
  const answer = await suite.answer(
    () =>
      client.request({
        method: 'POST',
        path: `/admin/v1/partners/${NIL}/webhook-endpoints`,
        body: {},
        retry: 'unsafe',
        response: ANY,
      }),
    { status: 403, code: 'insufficient_scope' },
  );
  if (answer.exchange?.status === 404 && (answer.json as Json)?.error === undefined) {
    return suite.skip(
      '4.13',
      title,
      'the base URL does not serve this path (4.13: the host serving it is not shown)',
    );
  }
  suite.report('4.13', title, answer.problems);
}
