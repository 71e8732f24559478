// Full garbage collections for the heap measurements: the chaos run's snapshots and the kept-intent
// footprint (test/intents/kept-heap.mjs, which scripts/check-package.mjs also runs on the packed
// package, so this is plain JavaScript).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Full garbage collections, with or without --expose-gc, each followed by a turn of the event loop:
 * a `FinalizationRegistry`'s callbacks (undici's fetch registers one per request, holding the
 * caller's `AbortSignal` until it runs) only run between tasks, so a heap measured right after a
 * synchronous `gc()` still counts what they are about to release.
 * @returns {Promise<void>}
 */
export async function collectGarbage() {
  /** @type {(() => void) | undefined} */
  let gc = /** @type {{ gc?: () => void }} */ (globalThis).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = /** @type {() => void} */ (runInNewContext('gc'));
  }
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(10);
  }
  gc();
}
