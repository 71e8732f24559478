/**
 * Where a fleet keeps its one access token: the contract of the `tokenStore` client option, the
 * in-memory store, and the key a client's token is kept under.
 */
import { keyDigest } from '../../internal/key-hash.js';

/**
 * An access token as kept in a {@link TokenStore}. The value is a live credential: whoever reads
 * the store can call the API as your machine client until `expiresAt`.
 *
 * @example
 * const token: StoredToken = { value: 'eyJ...', expiresAt: Date.now() + 3_600_000, refreshAt: Date.now() + 3_540_000 };
 */
export interface StoredToken {
  /** The bearer token. Sensitive. */
  value: string;
  /** When the token endpoint said it expires (epoch ms); the store may forget it then. */
  expiresAt: number;
  /** When instances should mint the next one (epoch ms), a minute or more before `expiresAt`. */
  refreshAt: number;
}

/**
 * Shares one access token among instances (the `tokenStore` client option). The SDK keeps a local
 * copy and reads the store only when that copy nears its refresh time or was refused, so a call costs
 * no round trip to the store. Every method may throw or reject: the client then works on its own
 * token and logs one warning per outage.
 *
 * `redisStores(client).tokenStore` and `postgresStores(pool).tokenStore` from
 * `partner-payments/stores` implement it; so can your own store, with the rules below.
 *
 * @example
 * import { redisStores } from 'partner-payments/stores';
 * const { tokenStore } = redisStores(redis);
 * const client = new PaymentsClient({ tokenStore, baseUrl: 'https://payments.example.com' });
 */
export interface TokenStore {
  /** The token stored under `key`, if one is there and not expired. */
  get(key: string): Promise<StoredToken | undefined>;
  /**
   * Stores `token` under `key` only when the stored token's value is `replaces` (the token this
   * instance saw fail or grow old), or when none is stored (or it expired). Returns whether it was
   * stored; false means another instance stored a newer one first. Atomic (compare and replace).
   */
  replace(key: string, token: StoredToken, replaces: string | undefined): Promise<boolean>;
  /**
   * Takes the short lock of `key` for `owner` unless another owner holds it (`SET NX PX`); it lapses
   * by itself after `ttlMs`. Returns whether this owner now holds it.
   */
  lock(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock of `key` if `owner` still holds it. */
  unlock(key: string, owner: string): Promise<void>;
}

/**
 * A {@link TokenStore} in this process's memory: clients built with the same store share one token
 * (useful for several clients in one process, and in tests). Instances in other processes need a
 * shared store such as Redis or Postgres.
 *
 * @example
 * const tokenStore = new MemoryTokenStore();
 * const a = new PaymentsClient({ tokenStore });
 * const b = new PaymentsClient({ tokenStore }); // one token request between them
 */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  readonly #locks = new Map<string, { owner: string; until: number }>();

  async get(key: string): Promise<StoredToken | undefined> {
    const token = this.#tokens.get(key);
    if (token && token.expiresAt <= Date.now()) {
      this.#tokens.delete(key);
      return undefined;
    }
    return token;
  }

  async replace(key: string, token: StoredToken, replaces: string | undefined): Promise<boolean> {
    const current = await this.get(key);
    if (current && current.value !== replaces) return false;
    this.#tokens.set(key, { ...token });
    return true;
  }

  async lock(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const held = this.#locks.get(key);
    const now = Date.now();
    if (held && held.owner !== owner && held.until > now) return false;
    this.#locks.set(key, { owner, until: now + ttlMs });
    return true;
  }

  async unlock(key: string, owner: string): Promise<void> {
    if (this.#locks.get(key)?.owner === owner) this.#locks.delete(key);
  }
}

/**
 * The store key of a machine client's token: a digest of the token endpoint, the client id and the
 * normalised scopes (prefixed and sorted, so their order does not matter). Never the secret.
 */
export function tokenStoreKey(authUrl: string, clientId: string, scopes: readonly string[]): string {
  const normalized = [...new Set(scopes.map((s) => (s.startsWith('svc/') ? s : `svc/${s}`)))].sort();
  return `partner-payments:token:${keyDigest([authUrl, clientId, normalized])}`;
}
