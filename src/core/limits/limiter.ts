/**
 * The limiter a client runs before each attempt: a local bucket (no promise, no store round trip
 * while a slot is free) or a shared store's bucket, spent through a short local lease of slots (no
 * round trip while the lease lasts), waits that respect the caller's abort and deadline, and 429
 * feedback that pauses the whole fleet. The local bucket refills, and its waits sleep, on the client's
 * wait clock (the real one, or a manual-clock mock's: see internal/wait-clock.ts); a shared store's
 * bucket and its leases keep the store's clock.
 */
import { sleep } from '../../internal/sleep.js';
import { onClock, realClock, sleepOn, type WaitClock } from '../../internal/wait-clock.js';
import { APIUserAbortError, RateLimitError } from '../errors/api-errors.js';
import type { LogFn } from '../observe/logger.js';
import type { RateLimitLease, RateLimitStore } from '../stores/rate-limit-store.js';
import { StoreGuard } from '../stores/store-guard.js';
import {
  type BucketLimit,
  type BucketState,
  leaseWindowMs,
  pauseBucket,
  takeSlot,
} from '../stores/token-bucket.js';

/**
 * Slots taken from a shared bucket and not yet spent. They lapse after one lease window
 * (`leaseWindowMs`, at most 500 ms), counted from before the store call; the store holds back the
 * capacity of the slots leased in the current and the previous window, so that the fleet's leased
 * slots and the shared bucket together never exceed the service's bucket. An unused slot is lost to
 * the fleet for at most two windows.
 */
interface Lease {
  slots: number;
  expiresAt: number;
  /** Whether the last refill's slots lapsed unspent (the next lease is then smaller). */
  wasted: boolean;
}

/** Applies one client's rate limit. */
export class RateLimiter {
  #local: BucketState | undefined;
  readonly #guard: StoreGuard | undefined;
  readonly #lease: Lease = { slots: 0, expiresAt: 0, wasted: false };
  /** Slots asked for at the next refill: doubles while leases are spent, halves when they lapse. */
  #leaseSize = 1;
  /** Most slots one lease may hold: a quarter of the burst, so that every instance of a fleet gets some. */
  readonly #maxLease: number;
  /** The refill under way (one store call at a time), resolving the wait in ms (0: slots leased). */
  #refilling: Promise<number> | undefined;
  /** Calls waiting for a slot, which the next lease is sized for. */
  #waiting = 0;
  readonly #windowMs: number;

  constructor(
    private readonly limit: BucketLimit,
    private readonly store: RateLimitStore | undefined,
    private readonly key: string,
    log: LogFn | undefined,
    /** The clock of the local bucket and of its waits (a store's bucket keeps the store's). */
    private readonly clock: WaitClock = realClock,
  ) {
    this.#guard = store && new StoreGuard('the rate-limit store', log);
    this.#maxLease = Math.max(1, Math.min(64, Math.floor(limit.burst / 4)));
    this.#windowMs = leaseWindowMs(limit);
  }

  /**
   * Takes a slot for one attempt. Returns undefined when a slot was free locally (the hot path: a
   * local bucket's slot, or one of the shared bucket's slots leased earlier), else a promise that
   * settles once a slot is taken. Rejects with {@link RateLimitError} at once when the wait would end
   * after `deadlineAt`, and with the abort error when `signal` aborts.
   */
  acquire(signal: AbortSignal | undefined, deadlineAt: number | undefined): Promise<void> | undefined {
    if (this.store ? this.#takeLeased(Date.now()) : this.#takeLocal() === 0) return undefined;
    return this.#acquire(signal, deadlineAt);
  }

  /** A 429 arrived anyway: no slot for anyone (this process, and the fleet through the store) for `ms`. */
  backoff(ms: number): void {
    this.#local = pauseBucket(this.#local, this.limit, this.#now(), ms);
    this.#lease.slots = 0; // leased slots are not spent into a pause
    const { store } = this;
    if (store)
      void this.#guard?.run(
        () => store.pause(this.key, this.limit, ms),
        () => undefined,
      );
  }

  async #acquire(signal: AbortSignal | undefined, deadlineAt: number | undefined): Promise<void> {
    this.#waiting++;
    try {
      for (;;) {
        let waitMs: number;
        if (!this.store) {
          waitMs = this.#takeLocal();
        } else {
          if (this.#takeLeased(Date.now())) return;
          // One store call at a time per client: the others wait for its lease.
          this.#refilling ??= this.#refill().finally(() => {
            this.#refilling = undefined;
          });
          waitMs = await this.#refilling;
          if (waitMs === 0) continue; // slots leased: take one, unless other waiters took them all
        }
        if (waitMs === 0) return;
        // The deadline is real time; a wait on the wait clock lasts no longer than `waitMs` of it.
        if (deadlineAt !== undefined && Date.now() + waitMs > deadlineAt) throw this.#tooLong(waitMs);
        // A little jitter, so that the waiters of a fleet do not all ask again at the same moment.
        if (this.store) await sleep(waitMs + Math.random() * 10, signal, APIUserAbortError);
        else await sleepOn(this.clock, waitMs, signal, APIUserAbortError);
      }
    } finally {
      this.#waiting--;
    }
  }

  /** Takes a leased slot when one is left and has not lapsed. */
  #takeLeased(now: number): boolean {
    const lease = this.#lease;
    if (lease.slots === 0) return false;
    if (now >= lease.expiresAt) {
      lease.slots = 0;
      lease.wasted = true;
      return false;
    }
    lease.slots--;
    return true;
  }

  /** Leases slots from the store (or, while it is down, takes one from the local bucket). */
  async #refill(): Promise<number> {
    const { store, limit } = this;
    if (!store || !this.#guard) return this.#takeLocal();
    const lease = this.#lease;
    this.#leaseSize = lease.wasted
      ? Math.max(1, this.#leaseSize >> 1)
      : Math.min(this.#maxLease, this.#leaseSize * 2);
    const want = Math.min(this.#maxLease, Math.max(this.#leaseSize, this.#waiting));
    // The lapse is counted from before the store call: earlier than the store's own time of the take.
    const askedAt = Date.now();
    const { taken, waitMs } = await this.#guard.run<RateLimitLease>(
      // One slot is spent at once by the call that asked for it: a plain take, which holds nothing back.
      () => (store.lease && want > 1 ? store.lease(this.key, limit, want) : this.#takeOne(store)),
      () => {
        const local = this.#takeLocal();
        return { taken: local === 0 ? 1 : 0, waitMs: local };
      },
    );
    if (taken > 0) {
      lease.slots = taken;
      lease.expiresAt = askedAt + this.#windowMs;
      lease.wasted = false;
      return 0;
    }
    return waitMs;
  }

  /** A lease of one slot from a store without `lease`. */
  async #takeOne(store: RateLimitStore): Promise<RateLimitLease> {
    const waitMs = await store.take(this.key, this.limit);
    return { taken: waitMs === 0 ? 1 : 0, waitMs };
  }

  #takeLocal(): number {
    const { state, waitMs } = takeSlot(this.#local, this.limit, this.#now());
    this.#local = state;
    return waitMs;
  }

  /** The local bucket's time: the wait clock's. */
  #now(): number {
    return onClock(this.clock, Date.now());
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
