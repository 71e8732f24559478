/**
 * Auth strategies. The core calls one hook per attempt (`token()`) and reports a 401 through
 * another (`unauthorized()`); it never sees the client secret, and a strategy never sees a request.
 */
import type { SecretRegistry } from '../../internal/redact.js';
import { TokenResponse } from '../../schemas/compiled/oauth.js';
import type { TokenResponse as Token } from '../../schemas/oauth.js';
import { APIConnectionTimeoutError, APIUserAbortError, CallError } from '../errors/api-errors.js';
import { explainCredentials } from '../errors/hints.js';
import type { EmitFn } from '../observe/events.js';
import type { CoreSpec } from '../types.js';

/**
 * A bearer token, or a function that returns one (called before each attempt).
 *
 * @example
 * const accessToken: AccessTokenSource = () => sessionStore.tokenFor(userId);
 * const client = new PaymentsClient({ accessToken, baseUrl: 'https://payments.example.com' });
 */
export type AccessTokenSource = string | (() => string | Promise<string>);

/** What the client-credentials grant sends: the client's credentials, scopes and token URL. */
export interface GrantOptions {
  clientId: string | undefined;
  clientSecret: string | undefined;
  scopes: readonly string[];
  authUrl: string;
}

/** The hooks the core calls. */
export interface AuthStrategy {
  /** The bearer token for the next attempt. */
  token(signal?: AbortSignal, deadlineAt?: number): Promise<string>;
  /** A token usable now without waiting, when there is one (the hot path skips a promise). */
  current?(): string | undefined;
  /**
   * Reports that `token` got a 401 with `code`. Returns true when a fresh token may fix it, in
   * which case the core replays the call once.
   */
  unauthorized(token: string, code: string | undefined): boolean;
}

/** 401 codes a new token can cure; `client_revoked` and the scope errors cannot. */
export const REFRESHABLE = new Set(['token_expired', 'invalid_token']);

export { TokenResponse };

/** Mints a token: the core's POST to `{authUrl}/oauth2/token`, retried like a read. */
export type MintFn = () => Promise<Token>;

/** The lifetime assumed when the token endpoint does not say (spec 8: one hour). */
const DEFAULT_LIFETIME_S = 3600;
/** Re-mint at least this long before expiry, so a token never expires in flight. */
const REFRESH_SKEW_MS = 60_000;

/**
 * When to re-mint a token issued at `issuedAt` with `lifetimeMs`: 60 s before expiry, or halfway
 * through a lifetime too short for that.
 */
export function refreshAt(issuedAt: number, lifetimeMs: number): number {
  return issuedAt + Math.max(lifetimeMs - REFRESH_SKEW_MS, lifetimeMs / 2);
}

interface CachedToken {
  value: string;
  refreshAt: number;
}

/**
 * OAuth client credentials: one cached token, shared by every call; one mint in flight at a time
 * (100 concurrent first calls make one token request); re-minted ahead of expiry; dropped on a
 * 401 that a new token can cure.
 */
export class ClientCredentialsAuth implements AuthStrategy {
  #cached: CachedToken | undefined;
  #inflight: Promise<string> | undefined;

  constructor(
    private readonly mint: MintFn,
    private readonly emit: EmitFn,
    private readonly secrets: SecretRegistry,
  ) {}

  current(): string | undefined {
    const cached = this.#cached;
    return cached && Date.now() < cached.refreshAt ? cached.value : undefined;
  }

  token(signal?: AbortSignal): Promise<string> {
    const cached = this.current();
    if (cached !== undefined) return Promise.resolve(cached);
    this.#inflight ??= this.#mint().finally(() => {
      this.#inflight = undefined;
    });
    // The mint is shared, so one caller's abort ends its own wait, not the mint.
    return bounded(this.#inflight, signal);
  }

  unauthorized(token: string, code: string | undefined): boolean {
    if (this.#cached?.value === token) {
      this.#cached = undefined;
      this.emit('token', { action: 'invalidated', reason: code ?? 'unauthorized' });
    }
    return code !== undefined && REFRESHABLE.has(code);
  }

  async #mint(): Promise<string> {
    const token = await mintToken(this.mint, this.emit, this.secrets);
    if (this.#cached && this.#cached.value !== token.value) this.secrets.delete(this.#cached.value);
    this.#cached = token;
    return token.value;
  }
}

/**
 * Mints a token, registers it for redaction and emits `token` `minted`; returns it with its expiry
 * and refresh time (epoch ms).
 */
export async function mintToken(
  mint: MintFn,
  emit: EmitFn,
  secrets: SecretRegistry,
): Promise<{ value: string; expiresAt: number; refreshAt: number }> {
  const started = Date.now();
  const res = await mint();
  secrets.add(res.access_token);
  const lifetimeS = res.expires_in ?? DEFAULT_LIFETIME_S;
  const now = Date.now();
  const lifetimeMs = lifetimeS * 1000;
  emit('token', { action: 'minted', expiresIn: lifetimeS, durationMs: now - started });
  return { value: res.access_token, expiresAt: now + lifetimeMs, refreshAt: refreshAt(now, lifetimeMs) };
}

/** A fixed token (a user token, or one your own code manages). Never refreshed. */
export class StaticTokenAuth implements AuthStrategy {
  #token: string;
  constructor(token: string, secrets: SecretRegistry) {
    this.#token = token;
    secrets.add(token);
  }
  current(): string {
    return this.#token;
  }
  token(): Promise<string> {
    return Promise.resolve(this.#token);
  }
  unauthorized(): boolean {
    return false;
  }
}

/** A token from your function, asked before every attempt; a 401 that a new token can cure asks again once. */
export class TokenFunctionAuth implements AuthStrategy {
  #last: string | undefined;
  constructor(
    private readonly source: () => string | Promise<string>,
    private readonly secrets: SecretRegistry,
  ) {}

  async token(): Promise<string> {
    let value: unknown;
    try {
      value = await this.source();
    } catch (error) {
      // Keep the promise that every error the SDK throws is a PaymentsError; the cause is yours.
      throw new CallError('The accessToken function threw.', { cause: error });
    }
    if (typeof value !== 'string' || value === '') {
      throw new CallError('The accessToken function returned no token (expected a non-empty string).');
    }
    if (value !== this.#last) {
      // Only the current token stays registered, so a rotating source does not grow the list.
      this.secrets.delete(this.#last);
      this.secrets.add(value);
      this.#last = value;
    }
    return value;
  }

  unauthorized(_token: string, code: string | undefined): boolean {
    return code !== undefined && REFRESHABLE.has(code);
  }
}

/** The strategy for a client's options: a token source when given, else client credentials. */
export function makeAuth(
  accessToken: AccessTokenSource | undefined,
  mint: MintFn,
  emit: EmitFn,
  secrets: SecretRegistry,
): AuthStrategy {
  if (typeof accessToken === 'string') return new StaticTokenAuth(accessToken, secrets);
  if (typeof accessToken === 'function') return new TokenFunctionAuth(accessToken, secrets);
  return new ClientCredentialsAuth(mint, emit, secrets);
}

/** The token endpoint of spec 5.3, on the auth URL (the one request of the service not in resources/). */
export const TOKEN_ROUTE = '/oauth2/token';

/**
 * The OAuth client-credentials grant (spec 5.3): a form POST to `{authUrl}/oauth2/token`, sent
 * through `exchange` (the core's attempts, timeouts and retries, as for a read; no call events).
 */
export function clientCredentialsGrant(
  exchange: (spec: CoreSpec<typeof TokenResponse>) => Promise<Token>,
  o: GrantOptions,
): MintFn {
  const form = {
    grant_type: 'client_credentials',
    client_id: o.clientId ?? '',
    client_secret: o.clientSecret ?? '',
    scope: o.scopes.join(' '),
  };
  return () =>
    exchange({
      method: 'POST',
      origin: o.authUrl,
      path: TOKEN_ROUTE,
      form,
      auth: false,
      retry: 'safe',
      response: TokenResponse,
      context: 'Could not get an access token',
      explain: (error) => explainCredentials(error, o),
    });
}

/**
 * The shared wait (a mint, or the token store's), ended early for one caller by its abort or by its
 * deadline (the token store's wait only).
 */
export function bounded<T>(promise: Promise<T>, signal?: AbortSignal, deadlineAt?: number): Promise<T> {
  if (!signal && deadlineAt === undefined) return promise;
  if (signal?.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new APIUserAbortError());
    };
    const timer =
      deadlineAt === undefined
        ? undefined
        : setTimeout(
            () => {
              done();
              reject(
                new APIConnectionTimeoutError('The call reached its deadline waiting for an access token.'),
              );
            },
            Math.max(0, deadlineAt - Date.now()),
          );
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
