// The clock a client's waits run on: polling, `awaitResult`, retry back-off, the rate limiter's own
// bucket, reconciliation (its waits, and the send stamps it measures settleMs from). The real timers by
// default; a client made from a manual-clock mock's `mock.clientOptions()` gets the mock's, carried
// under a registry symbol (the main entry and `partner-payments/testing` may be separate bundles),
// so it adds no name to either entry.
import { sleep } from './sleep.js';

/** Where a client's waits sleep, and the time they measure. */
export interface WaitClock {
  /** Milliseconds, on the time line the waits measure. */
  now(): number;
  /**
   * Resolves after `ms`, or sooner (a mock's clock was moved, or `signal` aborted: the caller rejects
   * then); never rejects.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The key of a client option holding a {@link WaitClock} (set by `mock.clientOptions()`). */
export const WAIT_CLOCK: symbol = Symbol.for('partner-payments.waitClock');

/** The real timers (the global ones, so fake timers drive them in tests). */
export const realClock: WaitClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

/**
 * `realMs` (an instant on real time, epoch ms) on `clock`'s time line: itself on the real clock (a
 * pointer compare, no call), else as far from the clock's now as it is from real now.
 */
export function onClock(clock: WaitClock, realMs: number): number {
  return clock === realClock ? realMs : clock.now() + realMs - Date.now();
}

/** The wait clock an options object carries, else the real one. */
export function waitClockOf(options: object | undefined): WaitClock {
  const clock = options && (options as Record<symbol, unknown>)[WAIT_CLOCK];
  return isWaitClock(clock) ? clock : realClock;
}

function isWaitClock(value: unknown): value is WaitClock {
  const c = value as Partial<WaitClock> | undefined;
  return typeof c?.now === 'function' && typeof c.sleep === 'function';
}

/** The wait clock of each client that has one other than the real timers (polling reads it). */
export const clientClocks = new WeakMap<object, WaitClock>();

/** The clock a client's waits run on. */
export const clockOfClient = (client: object): WaitClock => clientClocks.get(client) ?? realClock;

/**
 * Waits `ms` on `clock`; with a `signal`, rejects with a new `AbortError()` as soon as it aborts.
 */
export function sleepOn(
  clock: WaitClock,
  ms: number,
  signal: AbortSignal | undefined,
  AbortError: new () => Error,
): Promise<void> {
  if (clock === realClock) return sleep(ms, signal, AbortError);
  if (signal?.aborted) return Promise.reject(new AbortError());
  if (!signal) return clock.sleep(ms);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    clock.sleep(ms, signal).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
