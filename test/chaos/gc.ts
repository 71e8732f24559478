import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Full garbage collections, with or without --expose-gc, each followed by a turn of the event loop:
 * a `FinalizationRegistry`'s callbacks (undici's fetch registers one per request, holding the
 * caller's `AbortSignal` until it runs) only run between tasks, so a heap measured right after a
 * synchronous `gc()` still counts what they are about to release.
 */
export async function collectGarbage(): Promise<void> {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(10);
  }
  gc();
}
