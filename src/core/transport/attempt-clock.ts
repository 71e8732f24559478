/**
 * One timer per client that ends every attempt at its deadline, whatever the server does: a body
 * dripping one byte at a time or a stream of `1xx` responses cannot outlive `timeoutMs`. undici's
 * own `headersTimeout`/`bodyTimeout` cannot do this (they are idle timers, reset by every chunk).
 *
 * The hot path pays a `Set` insertion and deletion, not an `AbortController` and a timer: the one
 * timer is armed for the earliest live deadline and re-armed only when it fires or when an attempt
 * with an earlier deadline starts. Between bursts it is unref'd, so it never keeps a process alive.
 */

/** The error an attempt is aborted with when its time is up. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
}

/**
 * An attempt in flight, with one abort listener: the transport's, which stops its exchange. No
 * `AbortController` per request.
 */
export class Attempt {
  aborted = false;
  reason: unknown = undefined;
  /** True when the clock ended the attempt (not the caller's signal). */
  timedOut = false;
  listener: (() => void) | undefined = undefined;
  callerSignal: AbortSignal | undefined = undefined;
  onCallerAbort: (() => void) | undefined = undefined;

  constructor(readonly deadline: number) {}

  /** Sets the one listener called when the attempt is aborted (by the clock or the caller). */
  onAbort(listener: () => void): void {
    this.listener = listener;
  }

  /** Aborts the attempt once; the transport's pending read rejects with `reason`. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

type Timer = ReturnType<typeof setTimeout>;

/** The per-client clock: `start` an attempt, `end` it when its response was read or failed. */
export class AttemptClock {
  readonly #live = new Set<Attempt>();
  #timer: Timer | undefined = undefined;
  #armedAt = Number.POSITIVE_INFINITY;

  /** Registers an attempt that must end within `timeoutMs`; the caller's `signal` aborts it too. */
  start(timeoutMs: number, signal: AbortSignal | undefined): Attempt {
    const attempt = new Attempt(Date.now() + timeoutMs);
    if (signal) {
      if (signal.aborted) attempt.abort(signal.reason);
      else {
        attempt.callerSignal = signal;
        attempt.onCallerAbort = () => attempt.abort(signal.reason);
        signal.addEventListener('abort', attempt.onCallerAbort, { once: true });
      }
    }
    const live = this.#live;
    if (live.size === 0) this.#timer?.ref?.();
    live.add(attempt);
    if (attempt.deadline < this.#armedAt) this.#arm(attempt.deadline);
    return attempt;
  }

  /** Forgets an attempt that settled. */
  end(attempt: Attempt): void {
    const live = this.#live;
    live.delete(attempt);
    if (attempt.onCallerAbort) attempt.callerSignal?.removeEventListener('abort', attempt.onCallerAbort);
    // Nothing in flight: the armed timer must not keep the process alive until it fires.
    if (live.size === 0) this.#timer?.unref?.();
  }

  /** Attempts in flight (for tests). */
  get size(): number {
    return this.#live.size;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(this.#tick, Math.max(0, at - Date.now()));
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const attempt of this.#live) {
      if (attempt.deadline <= now) {
        this.#live.delete(attempt);
        attempt.timedOut = true;
        attempt.abort(new AttemptTimeout('attempt timed out'));
      } else if (attempt.deadline < next) next = attempt.deadline;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  };
}
