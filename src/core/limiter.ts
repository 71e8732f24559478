/**
 * The limiter a client runs before each attempt: a local bucket (no promise, no store round trip
 * while a slot is free) or a shared store's bucket, waits that respect the caller's abort and
 * deadline, and 429 feedback that pauses the whole fleet.
 */
import { sleep } from '../internal/sleep.js';
import { RateLimitError } from './errors.js';
import type { LogFn } from './logger.js';
import {
  type BucketLimit,
  type BucketState,
  pauseBucket,
  type RateLimitStore,
  takeSlot,
} from './rate-limit.js';
import { StoreGuard } from './store-guard.js';

/** Applies one client's rate limit. */
export class RateLimiter {
  #local: BucketState | undefined;
  readonly #guard: StoreGuard | undefined;

  constructor(
    private readonly limit: BucketLimit,
    private readonly store: RateLimitStore | undefined,
    private readonly key: string,
    log: LogFn | undefined,
  ) {
    this.#guard = store && new StoreGuard('the rate-limit store', log);
  }

  /**
   * Takes a slot for one attempt. Returns undefined when a local slot was free (the hot path), else
   * a promise that settles once a slot is taken. Rejects with {@link RateLimitError} at once when
   * the wait would end after `deadlineAt`, and with the abort error when `signal` aborts.
   */
  acquire(signal: AbortSignal | undefined, deadlineAt: number | undefined): Promise<void> | undefined {
    if (!this.store && this.#takeLocal() === 0) return undefined;
    return this.#acquire(signal, deadlineAt);
  }

  /** A 429 arrived anyway: no slot for anyone (this process, and the fleet through the store) for `ms`. */
  backoff(ms: number): void {
    const now = Date.now();
    this.#local = pauseBucket(this.#local, this.limit, now, ms);
    const { store } = this;
    if (store)
      void this.#guard?.run(
        () => store.pause(this.key, this.limit, ms),
        () => undefined,
      );
  }

  async #acquire(signal: AbortSignal | undefined, deadlineAt: number | undefined): Promise<void> {
    for (;;) {
      const { store } = this;
      const waitMs =
        store && this.#guard
          ? await this.#guard.run(
              () => store.take(this.key, this.limit),
              () => this.#takeLocal(),
            )
          : this.#takeLocal();
      if (waitMs === 0) return;
      if (deadlineAt !== undefined && Date.now() + waitMs > deadlineAt) throw this.#tooLong(waitMs);
      // A little jitter, so that the waiters of a fleet do not all ask again at the same moment.
      await sleep(waitMs + (store ? Math.random() * 10 : 0), signal);
    }
  }

  #takeLocal(): number {
    const { state, waitMs } = takeSlot(this.#local, this.limit, Date.now());
    this.#local = state;
    return waitMs;
  }

  #tooLong(waitMs: number): RateLimitError {
    const { burst, perSecond } = this.limit;
    return new RateLimitError({
      status: 429,
      code: 'rate_limit_exceeded',
      message: `No slot of the client's rate limit (${burst} at once, ${perSecond}/s) frees up before the call's deadline; nothing was sent`,
      requestId: undefined,
      headers: {},
      retryAfterMs: waitMs,
    });
  }
}
