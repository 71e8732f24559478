// The clock that a client made from `mock.clientOptions()` waits on when the mock's clock is manual:
// its polling, `awaitResult`, retry back-off, wait for a rate-limit slot and reconciliation's waits
// end as soon as the test moves the mock's clock, so a test advances time instead of waiting it. Without a move, a wait lasts its time in real time, as
// before (a test that never advances is slow, never stuck).
import type { WaitClock } from '../internal/wait-clock.js';
import type { InternalClock } from './clock.js';

/**
 * The wait clock of a manual-clock mock's clients: its time is real time plus what the test
 * advanced, and a wait ends at the next `mock.clock.advance()` (or at once when the clock moved since
 * the last wait ended: the test advanced between a read and the wait after it).
 */
export function clientWaitClock(clock: InternalClock): WaitClock {
  const origin = clock.now();
  let moves = 0;
  let seen = 0;
  clock.onMoved(() => {
    moves++;
  });
  return {
    now: () => Date.now() + (clock.now() - origin),
    sleep(ms, signal) {
      if (moves !== seen) {
        seen = moves;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          off();
          signal?.removeEventListener('abort', done);
          seen = moves;
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        const off = clock.onMoved(done);
        // An aborted wait lets its timer go at once (the caller has rejected already).
        signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
}
