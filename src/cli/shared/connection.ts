// How every command that talks to the service is pointed at it: the connection flags, the
// settings they give (a flag, else the variable the client itself reads), and the scopes to ask
// for. `partner-payments doctor`, `verify` and `mcp` all take them, so they live here, below the
// commands, rather than in one command that the others would have to import.
import { HELP_OPTION, UsageError } from './args.js';

/** Where a connection setting came from, so that a fix names the right place. */
export type Source = 'flag' | 'env' | 'base URL' | 'unset';

/** A connection setting as given, with where it came from; never checked here (doctor does). */
export interface Setting {
  value: string | undefined;
  source: Source;
  /** The flag and the variable that set it, for messages. */
  flag: string;
  env: string;
}

export interface Connection {
  clientId: Setting;
  clientSecret: Setting;
  baseUrl: Setting;
  authUrl: Setting;
}

/** The environment a command reads its variables from (the process's, or a test's). */
export type Env = Record<string, string | undefined>;

/** The connection flags every command that talks to the service takes (and `--timeout`, `--help`). */
export const CONNECTION = {
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'base-url': { type: 'string' },
  'auth-url': { type: 'string' },
  timeout: { type: 'string' },
  ...HELP_OPTION,
} as const;

/**
 * `--scopes` (names with or without `svc/`, separated by commas or spaces; the default the client
 * itself asks for), each once with its `svc/` prefix.
 */
export function scopesOf(value: string | undefined): string[] {
  const scopes = (value ?? 'payments:create,payments:read,locations:read')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => (s.startsWith('svc/') ? s : `svc/${s}`));
  if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope name');
  return [...new Set(scopes)];
}

/** The connection settings from the flags, else the client's variables. */
export function connectionOf(values: Record<string, unknown>, env: Env): Connection {
  const str = (name: string) => values[name] as string | undefined;
  const baseUrl = setting(str('base-url'), env, '--base-url', 'PAYMENTS_BASE_URL');
  const authUrl = setting(str('auth-url'), env, '--auth-url', 'PAYMENTS_AUTH_URL');
  // As the client does: without an auth URL, tokens are minted at the base URL.
  if (authUrl.source === 'unset' && baseUrl.value) {
    authUrl.value = baseUrl.value;
    authUrl.source = 'base URL';
  }
  return {
    clientId: setting(str('client-id'), env, '--client-id', 'PAYMENTS_CLIENT_ID'),
    clientSecret: setting(str('client-secret'), env, '--client-secret', 'PAYMENTS_CLIENT_SECRET'),
    baseUrl,
    authUrl,
  };
}

/** A flag, else the variable (an empty variable counts as unset, as for the client). */
export function setting(flag: string | undefined, env: Env, flagName: string, envName: string): Setting {
  if (flag !== undefined) return { value: flag, source: 'flag', flag: flagName, env: envName };
  const fromEnv = env[envName];
  if (fromEnv) return { value: fromEnv, source: 'env', flag: flagName, env: envName };
  return { value: undefined, source: 'unset', flag: flagName, env: envName };
}
