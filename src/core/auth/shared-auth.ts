/**
 * Client credentials with the token kept in a shared {@link TokenStore}: one mint per refresh for a
 * whole fleet. Each instance keeps a local copy and touches the store only when that copy nears its
 * refresh time or the service refused it.
 */
import type { SecretRegistry } from '../../internal/redact.js';
import { sleep } from '../../internal/sleep.js';
import type { EmitFn } from '../observe/events.js';
import type { LogFn } from '../observe/logger.js';
import { StoreGuard } from '../stores/store-guard.js';
import type { StoredToken, TokenStore } from '../stores/token-store.js';
import { type AuthStrategy, bounded, type MintFn, mintToken, REFRESHABLE } from './strategies.js';

/** How long the minting instance holds the lock; a crashed minter delays the others this long at most. */
const LOCK_TTL_MS = 10_000;
/** First and longest pause between two looks at the store while another instance mints. */
const POLL_FIRST_MS = 10;
const POLL_MAX_MS = 200;
const FAILED: unique symbol = Symbol('store failed');
const failed = (): typeof FAILED => FAILED;

/** Client credentials sharing one token through a store. */
export class SharedTokenAuth implements AuthStrategy {
  #local: StoredToken | undefined;
  /** The last token the service refused (or that grew old): never adopted again from the store. */
  #stale: string | undefined;
  #inflight: Promise<string> | undefined;
  readonly #guard: StoreGuard;
  readonly #owner = globalThis.crypto.randomUUID();

  constructor(
    private readonly mint: MintFn,
    private readonly emit: EmitFn,
    private readonly store: TokenStore,
    private readonly key: string,
    log: LogFn | undefined,
    private readonly secrets: SecretRegistry,
  ) {
    this.#guard = new StoreGuard('the token store', log);
  }

  current(): string | undefined {
    const local = this.#local;
    return local && Date.now() < local.refreshAt ? local.value : undefined;
  }

  token(signal?: AbortSignal, deadlineAt?: number): Promise<string> {
    const local = this.current();
    if (local !== undefined) return Promise.resolve(local);
    this.#inflight ??= this.#obtain().finally(() => {
      this.#inflight = undefined;
    });
    return bounded(this.#inflight, signal, deadlineAt);
  }

  unauthorized(token: string, code: string | undefined): boolean {
    this.#stale = token;
    if (this.#local?.value === token) {
      this.#local = undefined;
      this.emit('token', { action: 'invalidated', reason: code ?? 'unauthorized' });
    }
    return code !== undefined && REFRESHABLE.has(code);
  }

  /** The stored token when it is fresh, else one minted here by the single instance holding the lock. */
  async #obtain(): Promise<string> {
    if (this.#local) this.#stale = this.#local.value; // grown old: due for its refresh
    const { store, key } = this;
    const lockKey = `${key}:lock`;
    for (let delay = POLL_FIRST_MS; ; delay = Math.min(delay * 2, POLL_MAX_MS)) {
      const stored = await this.#guard.run(() => store.get(key), failed);
      if (stored === FAILED) return this.#mint();
      if (stored && this.#fresh(stored)) return this.#adopt(stored);
      const locked = await this.#guard.run(() => store.lock(lockKey, this.#owner, LOCK_TTL_MS), failed);
      if (locked === FAILED) return this.#mint();
      if (locked) {
        try {
          // Another instance may have stored a token between our read and our lock.
          const again = await this.#guard.run(
            () => store.get(key),
            () => undefined,
          );
          if (again && this.#fresh(again)) return this.#adopt(again);
          const token = await this.#mint();
          const local = this.#local;
          if (local)
            await this.#guard.run(
              () => store.replace(key, local, again?.value),
              () => false,
            );
          return token;
        } finally {
          await this.#guard.run(
            () => store.unlock(lockKey, this.#owner),
            () => undefined,
          );
        }
      }
      await sleep(delay);
    }
  }

  #fresh(stored: StoredToken): boolean {
    return stored.value !== this.#stale && Date.now() < stored.refreshAt;
  }

  #adopt(stored: StoredToken): string {
    this.secrets.add(stored.value);
    this.#keep({ value: stored.value, expiresAt: stored.expiresAt, refreshAt: stored.refreshAt });
    return stored.value;
  }

  async #mint(): Promise<string> {
    const token = await mintToken(this.mint, this.emit, this.secrets);
    this.#keep(token);
    return token.value;
  }

  #keep(token: StoredToken): void {
    if (this.#local && this.#local.value !== token.value) this.secrets.delete(this.#local.value);
    this.#local = token;
  }
}
