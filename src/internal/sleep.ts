// `sleep()`: a wait on the global timers that the caller's signal cuts short. Used by retries, the
// rate limiter, reconciliation and polling. The caller names the error an abort rejects with (the
// core's APIUserAbortError): internal/ is the ground floor and imports nothing of the rest of src/.

/**
 * Waits `ms` milliseconds. With a `signal`, rejects with a new `AbortError()` as soon as it aborts
 * (at once when it already has); the overloads make a caller with a signal name its error. Uses the
 * global timers, so fake timers drive it in tests.
 */
export function sleep(ms: number): Promise<void>;
export function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  AbortError: new () => Error,
): Promise<void>;
export function sleep(ms: number, signal?: AbortSignal, AbortError: new () => Error = Error): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
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
