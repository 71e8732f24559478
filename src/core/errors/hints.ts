/**
 * What the SDK adds to an error it can explain better than the service: which scope is missing and
 * where it goes, which options hold the credentials the token endpoint refused.
 */
import { DEFAULT_SCOPES } from '../../schemas/common.js';
import { APIError } from './api-errors.js';

/** How the client authenticates, as the hints need it. */
export interface AuthSetup {
  /** The scopes the client asks for (normalized, with `svc/`); undefined with an `accessToken`. */
  scopes: readonly string[] | undefined;
}

/** The scopes a client asks for unless told otherwise, in one line. */
const DEFAULTS = DEFAULT_SCOPES.join(', ');

/**
 * Adds to a `403 insufficient_scope` the scope the call needs (when known) and what to do: list it
 * in `scopes` and grant it to the API client. Other errors are returned untouched.
 */
export function explainScope(error: unknown, scope: string | undefined, auth: AuthSetup): unknown {
  if (!(error instanceof APIError) || error.code !== 'insufficient_scope') return error;
  const needed = scope ?? 'the scope this call needs';
  let advice: string;
  if (auth.scopes === undefined) {
    advice = `The access token you pass (accessToken) lacks ${needed}: get a token with it (the \`scopes\` option applies only to client credentials).`;
  } else if (scope !== undefined && auth.scopes.includes(scope)) {
    advice = `The client already asks for ${scope} in \`scopes\`, so the API client itself lacks it: grant it to the API client in the admin portal.`;
  } else {
    const example = scope ? `[...DEFAULT_SCOPES, '${scope}']` : '[...DEFAULT_SCOPES, ...]';
    advice = `Add ${needed} to the client's \`scopes\` option (new PaymentsClient({ scopes: ${example} })) and grant it to the API client in the admin portal. The default scopes (${DEFAULTS}) exclude svc/payments:refund and svc/pos:launch.`;
  }
  error.message += ` ${advice}`;
  return error;
}

/** What the credential hints know of the credentials: only their form, never the secret itself. */
export interface CredentialsSetup {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/**
 * Adds to a `401 invalid_client` from the token endpoint which options and variables to check (and
 * that the secret or id has whitespace at an end, the trailing line break of a file or `.env`, when
 * it has: without ever quoting the secret), and to a `401 client_revoked` what to do about it.
 */
export function explainCredentials(error: unknown, setup: CredentialsSetup = {}): unknown {
  if (!(error instanceof APIError)) return error;
  if (error.code === 'client_revoked') {
    error.message +=
      ' This API client is revoked, and stays so: create a new API client in the admin portal and use its id and secret (`clientId` and `clientSecret`, or PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET).';
    return error;
  }
  if (error.code !== 'invalid_client') return error;
  const padded = (value: string | undefined) => value !== undefined && value !== value.trim();
  const which = [
    padded(setup.clientId) ? '`clientId`' : undefined,
    padded(setup.clientSecret) ? '`clientSecret`' : undefined,
  ].filter(Boolean);
  if (which.length > 0)
    error.message += ` ${which.join(' and ')} ${which.length > 1 ? 'have' : 'has'} whitespace at an end (a line break or space, as a file or .env line leaves): trim it.`;
  error.message +=
    ' The token endpoint refused the client id or secret: check `clientId` and `clientSecret` (or the PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET environment variables), and that `authUrl` is the issuer of that API client.';
  return error;
}
