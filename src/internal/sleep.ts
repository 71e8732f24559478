// `sleep()`: a wait on the global timers that rejects with APIUserAbortError when the caller's
// signal aborts. Used by retries, the rate limiter and polling.
import { APIUserAbortError } from '../core/errors/api-errors.js';

/**
 * Waits `ms` milliseconds, or rejects with {@link APIUserAbortError} as soon as `signal` aborts
 * (at once when it already has). Uses the global timers, so fake timers drive it in tests.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
