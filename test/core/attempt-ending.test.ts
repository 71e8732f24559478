// What ended an attempt decides the error class, whatever error the runtime's `fetch` surfaces: the
// SDK's own clock (APIConnectionTimeoutError), the caller's signal (APIUserAbortError), or neither
// (a lost connection). Each runtime rejects an aborted exchange with an error of its own (undici's
// AbortError or "terminated", Bun's and Deno's DOMException, workerd's), some with a cause whose
// code means "connection refused": a classification that read the error would retry a timed-out
// payment as if nothing had been sent. Fake timers drive the SDK's clock.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/client.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  type CallError,
} from '../../src/core/errors/api-errors.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID } from '../helpers/fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

const abortError = () => new DOMException('This operation was aborted', 'AbortError');
/** Errors runtimes reject an aborted or broken exchange with. */
const SHAPES: [string, () => unknown][] = [
  ['an AbortError DOMException (undici, Bun, Deno, workerd)', abortError],
  [
    'undici\'s "terminated" with a socket cause',
    () =>
      new TypeError('terminated', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
  ],
  [
    'a "fetch failed" whose cause says the connection was refused',
    () =>
      new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) }),
  ],
  ['a plain Error', () => new Error('The operation was aborted.')],
];

type Where = 'headers' | 'body';

/**
 * A `fetch` that hangs until its signal aborts (`where`: before the headers, or mid-body after
 * them), then fails with `shape()`; `failOnItsOwn` makes it fail so after 100 ms with no abort.
 */
function hangingFetch(where: Where, shape: () => unknown, failOnItsOwn = false) {
  const calls: number[] = [];
  const fetch = (_input: unknown, init?: RequestInit): Promise<Response> => {
    calls.push(Date.now());
    const signal = init?.signal as AbortSignal;
    const failed = new Promise<never>((_resolve, reject) => {
      signal.addEventListener('abort', () => reject(shape()), { once: true });
      if (failOnItsOwn) setTimeout(() => reject(shape()), 100);
    });
    failed.catch(() => {});
    if (where === 'headers') return failed;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"payment_id":'));
        failed.catch((error: unknown) => controller.error(error));
      },
    });
    return Promise.resolve(
      new Response(body, { status: 201, headers: { 'content-type': 'application/json' } }),
    );
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

function payment(fetch: typeof globalThis.fetch, options: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  // The call path's own classification; reconciliation on top of it is tested in test/intents.
  const client = new PaymentsClient({
    accessToken: 'tok_test',
    baseUrl: 'https://api.test',
    fetch,
    reconcile: 'off',
  });
  const { timeoutMs = 1_000, signal } = options;
  return client.payments.create(
    ORDER_ID,
    { method: 'card', amount_cents: 100 },
    signal ? { timeoutMs, signal } : { timeoutMs },
  );
}

describe.each(['headers', 'body'] as const)('an attempt ended while waiting for the %s', (where) => {
  describe.each(SHAPES)('the runtime rejects with %s', (_name, shape) => {
    it("the SDK's clock fired: APIConnectionTimeoutError, not retried, outcome unknown", async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { fetch, calls } = hangingFetch(where, shape);
      const call = caught(payment(fetch));
      await vi.advanceTimersByTimeAsync(1_000);
      const error = (await call) as CallError;
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(error.outcomeUnknown).toBe(true);
      expect(calls).toHaveLength(1);
    });

    it('the caller aborted: APIUserAbortError at once, outcome unknown', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { fetch, calls } = hangingFetch(where, shape);
      const controller = new AbortController();
      const call = caught(payment(fetch, { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(200);
      controller.abort();
      const error = (await call) as CallError;
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect(error.outcomeUnknown).toBe(true);
      expect(Date.now() - calls[0]!).toBe(200);
      expect(calls).toHaveLength(1);
    });

    it('neither: the exchange failed on its own, a lost connection (not a timeout, not an abort)', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const { fetch } = hangingFetch(where, shape, true);
      const call = caught(payment(fetch));
      // Retries too, when the error's code says nothing was sent (a refused connection).
      await vi.advanceTimersByTimeAsync(10_000);
      const error = (await call) as CallError;
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
      expect(error).not.toBeInstanceOf(APIUserAbortError);
    });
  });
});
