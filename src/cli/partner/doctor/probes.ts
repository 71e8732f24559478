// The doctor's judgements of what the service answered through the SDK: the token endpoint, the
// credentials, the scopes (one token request each) and the API (its description and a read with
// the client's token).
import { APIConnectionError, APIError, InvalidResponseError, type PaymentsClient } from '../../../index.js';
import type { Connection } from '../../shared/connection.js';
import { duration } from '../output.js';
import { causeCode, describeError, type MintResult } from '../sdk.js';
import type { Check } from './checks.js';

/** Codes an OAuth token endpoint answers with (RFC 6749 5.2, spec 5.9): proof that one answered. */
const OAUTH_CODES = new Set([
  'invalid_client',
  'client_revoked',
  'invalid_scope',
  'invalid_request',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
]);

/** The fix for a URL that could not be reached, by the connection error's code. */
export function reachFix(error: unknown, setting: string): string {
  const code = causeCode(error) ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `check the host name in ${setting}`;
  if (code === 'ECONNREFUSED') {
    return `check the port in ${setting}, or start the service there (the mock: npx partner-payments-mock)`;
  }
  if (/CERT|TLS|SSL|EPROTO/.test(code)) {
    return `check ${setting}; behind a TLS-inspecting proxy, give Node.js its CA (NODE_EXTRA_CA_CERTS)`;
  }
  return `check network access to ${setting} from this machine (firewall, proxy)`;
}

/** Check 2: whether anything that speaks OAuth answers at {auth URL}/oauth2/token. */
export function judgeTokenEndpoint(first: MintResult, tokenUrl: string): Check {
  const base = { id: 'token-endpoint', title: 'token endpoint' } as const;
  const took = `(${duration(first.ms)})`;
  if (first.granted) return { ...base, verdict: 'ok', message: `${tokenUrl} issued a token ${took}` };
  const error = first.error;
  if (error instanceof APIError && error.code && OAUTH_CODES.has(error.code)) {
    return { ...base, verdict: 'ok', message: `${tokenUrl} answers (${error.status} ${error.code}) ${took}` };
  }
  const fix =
    'set PAYMENTS_AUTH_URL to the token issuer root of this environment (tokens are asked at {auth URL}/oauth2/token, spec 5.2)';
  if (error instanceof APIConnectionError) {
    return {
      ...base,
      verdict: 'fail',
      message: `${tokenUrl} ${describeError(error)}`,
      fix: reachFix(error, 'PAYMENTS_AUTH_URL'),
    };
  }
  if (error instanceof APIError && (error.status === 404 || error.status === 405)) {
    return {
      ...base,
      verdict: 'fail',
      message: `${tokenUrl} answered ${error.status}: no token endpoint at this auth URL`,
      fix,
    };
  }
  if (error instanceof InvalidResponseError) {
    return {
      ...base,
      verdict: 'fail',
      message: `${tokenUrl} answered ${error.status} but not with a token`,
      fix,
    };
  }
  const id = error instanceof APIError && error.requestId ? ` (request_id ${error.requestId})` : '';
  return {
    ...base,
    verdict: 'fail',
    message: `${tokenUrl} ${describeError(error)}${id}, not a token answer`,
    fix:
      error instanceof APIError && error.status >= 500
        ? `the issuer is failing: try again, or contact support quoting the request id`
        : fix,
  };
}

/** Check 3: whether the token endpoint accepts the client id and secret. */
export function judgeCredentials(first: MintResult | undefined, conn: Connection): Check {
  const base = { id: 'credentials', title: 'credentials' } as const;
  const id = conn.clientId.value;
  if (!id || !conn.clientSecret.value) {
    const missing = !id ? conn.clientId.env : conn.clientSecret.env;
    return {
      ...base,
      verdict: 'fail',
      message: `${missing} is not set`,
      fix: 'set PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET (the secret is shown once, when the API client is created in the admin portal)',
    };
  }
  if (!first) return { ...base, verdict: 'skip', message: 'not checked: the token endpoint did not answer' };
  const accepted = first.granted || (first.error instanceof APIError && first.error.code === 'invalid_scope');
  if (accepted) return { ...base, verdict: 'ok', message: `client ${id} is accepted` };
  const error = first.error;
  const code = error instanceof APIError ? error.code : undefined;
  const secretFrom = conn.clientSecret.source === 'flag' ? '--client-secret' : 'PAYMENTS_CLIENT_SECRET';
  // A value with whitespace at an end (the line break of a file or .env line) is refused as a wrong
  // one: name it, as the SDK's own error does.
  const padded = [
    conn.clientId.value !== id.trim() &&
      (conn.clientId.source === 'flag' ? '--client-id' : 'PAYMENTS_CLIENT_ID'),
    conn.clientSecret.value !== conn.clientSecret.value.trim() && secretFrom,
  ].filter((v): v is string => Boolean(v));
  if (code === 'invalid_client' && padded.length > 0) {
    return {
      ...base,
      verdict: 'fail',
      message: `the token endpoint refused client ${id.trim()} (401 invalid_client): ${padded.join(' and ')} ${padded.length > 1 ? 'have' : 'has'} a line break or spaces at an end`,
      fix: 'remove them (a file or a .env line leaves a trailing line break; a .env value needs no quotes)',
    };
  }
  if (code === 'invalid_client') {
    return {
      ...base,
      verdict: 'fail',
      message: `the token endpoint refused client ${id} and the secret from ${secretFrom} (401 invalid_client)`,
      fix: 'check PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET: a secret is shown once (create a new one if lost), and a client of the other environment (development, production) is refused this way',
    };
  }
  if (code === 'client_revoked') {
    return {
      ...base,
      verdict: 'fail',
      message: `client ${id} is revoked (401 client_revoked)`,
      fix: 'create a new API client in the admin portal and use its id and secret',
    };
  }
  return {
    ...base,
    verdict: 'fail',
    message: `the token endpoint ${describeError(error)} for client ${id}`,
    fix: 'check PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET',
  };
}

/** Whether a failed mint says the scope is not granted (rather than that something else failed). */
function refused(result: MintResult): boolean {
  if (result.granted) return false;
  const e = result.error;
  return (
    e instanceof APIError &&
    (e.code === 'invalid_scope' || e.code === 'insufficient_scope' || e.status === 403)
  );
}

/** Check 4: which scopes are granted (one token request each) and whether the expected ones are. */
export function judgeScopes(results: MintResult[], expected: string[], clientId: string): Check {
  const base = { id: 'scopes', title: 'scopes' } as const;
  const granted = results.filter((r) => r.granted).map((r) => r.scope);
  const notGranted = results.filter(refused).map((r) => r.scope);
  const unknown = results.filter((r) => !r.granted && !refused(r));
  const missing = expected.filter((s) => notGranted.includes(s));
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
  const others = notGranted.filter((s) => !expected.includes(s));
  const tail = others.length ? `; not granted, not expected: ${others.join(', ')}` : '';
  if (missing.length > 0) {
    return {
      ...base,
      verdict: 'fail',
      message: `expected but not granted: ${missing.join(', ')} (granted: ${list(granted)})`,
      fix: `grant ${missing.join(', ')} to API client ${clientId} in the admin portal, or leave ${missing.length > 1 ? 'them' : 'it'} out of the client's scopes and of --scopes`,
    };
  }
  const failed = unknown.filter((r) => expected.includes(r.scope));
  if (failed.length > 0) {
    const first = failed[0]!;
    return {
      ...base,
      verdict: 'fail',
      message: `${failed.map((r) => r.scope).join(', ')} could not be checked: the token endpoint ${describeError('error' in first ? first.error : undefined)}`,
      fix: 'run doctor again; if it persists, contact support',
    };
  }
  return { ...base, verdict: 'ok', message: `granted: ${list(granted)}${tail}` };
}

/** The answer to the description request, as the api, version and clock checks need it. */
export interface DescriptionAnswer {
  sentAt: number;
  receivedAt: number;
  status?: number;
  date?: string | undefined;
  document?: Record<string, unknown>;
  error?: unknown;
}

/** The read that proves a token works, and what it answered; `skipped` says why none was made. */
export type TokenRead = { error?: unknown; what: string; expect?: string } | { skipped: string };

/**
 * Check 5: the API answers at the base URL as the spec says, and accepts a token of the auth URL.
 * Any answer of the service is not enough: a base URL at a wrong path of it answers 404 `not_found`
 * everywhere, so the description must come back (or 404 `spec_not_available`, spec 4.10) and the
 * authenticated read must succeed (or answer the one 404 code it expects).
 */
export function judgeApi(description: DescriptionAnswer, read: TokenRead, apiRoot: string): Check {
  const base = { id: 'api', title: 'API' } as const;
  const docUrl = `${apiRoot}/pos/v1/.well-known/openapi.json`;
  const e = description.error;
  const fix = 'set PAYMENTS_BASE_URL to the API root of your environment, without /pos/v1';
  if (e instanceof APIConnectionError) {
    return {
      ...base,
      verdict: 'fail',
      message: `${apiRoot} ${describeError(e)}`,
      fix: reachFix(e, 'PAYMENTS_BASE_URL'),
    };
  }
  // An error code proves the service answered; a 404 other than spec_not_available proves that this
  // path of it is not the API root (the API's 404 codes name what was not found).
  const servesApi =
    !e ||
    (e instanceof APIError && e.code !== undefined && (e.status !== 404 || e.code === 'spec_not_available'));
  if (!servesApi) {
    return {
      ...base,
      verdict: 'fail',
      message: `${docUrl} ${describeError(e)}: no Partner Payments API at this base URL`,
      fix,
    };
  }
  const took = duration(description.receivedAt - description.sentAt);
  const answered = `${apiRoot}/pos/v1 answers (${description.status ?? (e as APIError).status}, ${took})`;
  if ('skipped' in read)
    return { ...base, verdict: 'ok', message: `${answered}; the token was not tried (${read.skipped})` };
  const r = read.error;
  if (!r || (r instanceof APIError && r.status === 404 && r.code === read.expect)) {
    return { ...base, verdict: 'ok', message: `${answered} and accepts the client's token (${read.what})` };
  }
  if (r instanceof APIError && r.code === 'invalid_token') {
    return {
      ...base,
      verdict: 'fail',
      message: `${answered} but refuses the tokens of the auth URL (401 invalid_token on ${read.what})`,
      fix: 'take PAYMENTS_BASE_URL and PAYMENTS_AUTH_URL from the same environment (development, production)',
    };
  }
  if (r instanceof APIError && r.status === 404) {
    return {
      ...base,
      verdict: 'fail',
      message: `${answered} but ${read.what} ${describeError(r)}: no Partner Payments API at this base URL`,
      fix,
    };
  }
  return {
    ...base,
    verdict: 'fail',
    message: `${answered} but ${read.what} ${describeError(r)}`,
    fix: 'run partner-payments verify for details, or contact support',
  };
}

/** The read that proves the token works: one location, else an order that does not exist (404). */
export async function tokenRead(clients: Map<string, PaymentsClient>): Promise<TokenRead> {
  const locations = clients.get('svc/locations:read');
  const orders = clients.get('svc/payments:read');
  try {
    if (locations) {
      await locations.locations.list({ limit: 1 });
      return { what: 'GET /pos/v1/locations' };
    }
    if (orders) {
      await orders.orders.get('00000000-0000-4000-8000-000000000000');
      return { what: 'GET /pos/v1/orders/{order_id}' };
    }
  } catch (error) {
    if (locations) return { error, what: 'GET /pos/v1/locations' };
    return { error, what: 'GET /pos/v1/orders/{order_id}', expect: 'order_not_found' };
  }
  return { skipped: 'no read scope granted' };
}
