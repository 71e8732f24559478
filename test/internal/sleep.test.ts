// internal/sleep.ts: the wait the retries, the limiter, reconciliation and polling share. It rejects
// with the error its caller names (the core's APIUserAbortError), so internal/ imports nothing of src/.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../../src/core/errors/api-errors.js';
import { sleep } from '../../src/internal/sleep.js';

const internal = new URL('../../src/internal/', import.meta.url);

/** The imports of a source that leave its own folder. */
function outsideImports(source: string): string[] {
  return [...source.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!).filter((s) => s.startsWith('..'));
}

describe('sleep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('resolves after its time, not before', async () => {
    let done = false;
    void sleep(1_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it("an abort during the wait rejects at once with the caller's error, message unchanged", async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal, APIUserAbortError).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const error = await waiting;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toBe('Request was aborted.');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a signal aborted already rejects without waiting', async () => {
    const error = await sleep(60_000, AbortSignal.abort(), APIUserAbortError).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('internal/, the ground floor', () => {
  it('imports nothing of the rest of src/', () => {
    const files = readdirSync(internal).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('sleep.ts');
    for (const file of files)
      expect(outsideImports(readFileSync(new URL(file, internal), 'utf8')), file).toEqual([]);
  });

  it('the check can fail: an import from core/ is seen', () => {
    expect(outsideImports("import { APIUserAbortError } from '../core/errors/api-errors.js';")).toEqual([
      '../core/errors/api-errors.js',
    ]);
  });
});
