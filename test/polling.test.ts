import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIUserAbortError,
  awaitPaymentResult,
  awaitRefundResult,
  InternalServerError,
  NotFoundError,
  type Payment,
  PaymentResultTimeoutError,
  type PollProgress,
  RateLimitError,
  type Refund,
  ResultTimeoutError,
} from '../src/index.js';
import type { PollingClient } from '../src/polling.js';

const ORDER = '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f';
const PAY = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const payment = (status: string): Payment => ({
  payment_id: PAY,
  order_id: ORDER,
  status,
  amount_cents: 500,
  method: 'card',
  created_at: '2026-11-22T00:00:00Z',
});

/** A client whose payment reads answer from a script, recording when each read happened. */
function scripted(answers: (() => Payment)[]) {
  const readsAt: number[] = [];
  const client: PollingClient = {
    payments: {
      get: async () => {
        readsAt.push(Date.now());
        const next = answers.shift() ?? answers.at(-1) ?? (() => payment('pending'));
        if (answers.length === 0) answers.push(next);
        return next();
      },
    },
    refunds: { get: async () => ({}) as Refund },
  };
  return { client, readsAt };
}

const apiError = (Class: typeof RateLimitError, status: number, retryAfterMs?: number) =>
  new Class({ status, code: undefined, message: 'x', requestId: 'r', headers: {}, retryAfterMs });

describe('awaitPaymentResult', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls every 3 s by default and returns once approved (after 3 polls)', async () => {
    const { client, readsAt } = scripted([
      () => payment('pending'),
      () => payment('pending'),
      () => payment('approved'),
    ]);
    const result = awaitPaymentResult(client, ORDER, PAY);
    await vi.advanceTimersByTimeAsync(6_000);
    await expect(result).resolves.toMatchObject({ status: 'approved' });
    expect(readsAt).toEqual([0, 3_000, 6_000]);
  });

  it('returns a declined payment (any status but pending ends the wait)', async () => {
    const { client } = scripted([() => payment('pending'), () => payment('declined')]);
    const result = awaitPaymentResult(client, ORDER, PAY);
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(result).resolves.toMatchObject({ status: 'declined' });
  });

  it('throws ResultTimeoutError with the last status within 60 s by default, its last read 1 s before', async () => {
    const { client, readsAt } = scripted([() => payment('pending')]);
    const result = awaitPaymentResult(client, ORDER, PAY);
    const settled = result.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(58_999);
    expect(readsAt.length).toBe(20);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await settled) as ResultTimeoutError;
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(error.name).toBe('ResultTimeoutError');
    expect(error.message).toContain('still pending after 59 s and 21 reads.');
    expect([error.waitedMs, error.reads]).toEqual([59_000, 21]);
    expect(error.lastStatus).toBe('pending');
    expect(error.message).toMatch(/support/);
    expect(readsAt.at(-1)).toBe(59_000);
  });

  it('rejects within one tick when aborted during a wait', async () => {
    const { client } = scripted([() => payment('pending')]);
    const controller = new AbortController();
    const result = awaitPaymentResult(client, ORDER, PAY, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    await Promise.resolve();
    await Promise.resolve();
    const settled = await Promise.race([result, Promise.resolve('still waiting')]);
    expect(settled).toBeInstanceOf(APIUserAbortError);
    expect((settled as Error).message).toBe('Request was aborted.');
  });

  it('waits out a 429 Retry-After of 5 s before the next poll, and still succeeds', async () => {
    const { client, readsAt } = scripted([
      () => payment('pending'),
      () => {
        throw apiError(RateLimitError, 429, 5_000);
      },
      () => payment('approved'),
    ]);
    const progress: PollProgress[] = [];
    const result = awaitPaymentResult(client, ORDER, PAY, { onPoll: (p) => progress.push(p) });
    await vi.advanceTimersByTimeAsync(8_000);
    await expect(result).resolves.toMatchObject({ status: 'approved' });
    expect(readsAt).toEqual([0, 3_000, 8_000]);
    expect(progress.map((p) => [p.attempt, p.status, p.nextPollInMs])).toEqual([
      [1, 'pending', 3_000],
      [2, undefined, 5_000],
      [3, 'approved', 0],
    ]);
  });

  it('keeps waiting through transient 5xx and throws other errors at once', async () => {
    const flaky = scripted([
      () => {
        throw apiError(InternalServerError, 503);
      },
      () => payment('approved'),
    ]);
    const ok = awaitPaymentResult(flaky.client, ORDER, PAY, { intervalMs: 1_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(ok).resolves.toMatchObject({ status: 'approved' });

    const missing = scripted([
      () => {
        throw apiError(NotFoundError, 404);
      },
    ]);
    await expect(awaitPaymentResult(missing.client, ORDER, PAY)).rejects.toBeInstanceOf(NotFoundError);
    expect(missing.readsAt).toHaveLength(1);
  });

  it('honours custom interval and maxWaitMs', async () => {
    const { client, readsAt } = scripted([() => payment('pending')]);
    const result = awaitPaymentResult(client, ORDER, PAY, { intervalMs: 500, maxWaitMs: 1_200 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_200);
    expect(await result).toBeInstanceOf(ResultTimeoutError);
    // The last read 120 ms (a tenth of the wait) before the deadline, not at it.
    expect(readsAt).toEqual([0, 500, 1_000, 1_080]);
  });

  it('still accepts the deprecated timeoutMs, and PaymentResultTimeoutError still matches', async () => {
    const { client, readsAt } = scripted([() => payment('pending')]);
    const result = awaitPaymentResult(client, ORDER, PAY, { intervalMs: 500, timeoutMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await result;
    expect(error).toBeInstanceOf(PaymentResultTimeoutError);
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(readsAt).toEqual([0, 500, 900]);
    // maxWaitMs wins when both are given
    const both = scripted([() => payment('pending')]);
    const r2 = awaitPaymentResult(both.client, ORDER, PAY, {
      intervalMs: 500,
      maxWaitMs: 500,
      timeoutMs: 5_000,
    });
    const e2 = r2.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    expect(await e2).toBeInstanceOf(ResultTimeoutError);
    expect(both.readsAt.map((t) => t - (both.readsAt[0] ?? 0))).toEqual([0, 450]);
  });

  it('says 1.35 s for a wait that ended 1,350 ms in, not 1 s or 2 s', async () => {
    const { client } = scripted([() => payment('pending')]);
    const result = awaitPaymentResult(client, ORDER, PAY, { intervalMs: 500, maxWaitMs: 1_500 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_500);
    const error = (await result) as ResultTimeoutError;
    expect(error.message).toContain('was still pending after 1.35 s and 4 reads.');
    expect(error.waitedMs).toBe(1_350);
  });
});

describe('awaitPaymentResult until', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("{ until: ['settled'] } waits through approved and returns the settled payment", async () => {
    const { client, readsAt } = scripted([
      () => payment('pending'),
      () => payment('approved'),
      () => payment('approved'),
      () => payment('settled'),
    ]);
    const result = awaitPaymentResult(client, ORDER, PAY, { until: ['settled'] });
    await vi.advanceTimersByTimeAsync(9_000);
    await expect(result).resolves.toMatchObject({ status: 'settled' });
    expect(readsAt).toEqual([0, 3_000, 6_000, 9_000]);
  });

  it.each(['declined', 'voided', 'failed', 'cancelled', 'expired'])(
    'a %s payment can never settle: the wait ends at once and returns it (no timeout error)',
    async (status) => {
      const { client, readsAt } = scripted([() => payment('pending'), () => payment(status)]);
      const result = awaitPaymentResult(client, ORDER, PAY, { until: ['settled'] });
      await vi.advanceTimersByTimeAsync(3_000);
      await expect(result).resolves.toMatchObject({ status });
      expect(readsAt).toEqual([0, 3_000]);
    },
  );

  it('a status the SDK does not know keeps the wait going', async () => {
    const { client } = scripted([() => payment('under_review'), () => payment('settled')]);
    const result = awaitPaymentResult(client, ORDER, PAY, { until: ['settled'] });
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(result).resolves.toMatchObject({ status: 'settled' });
  });

  it('the deadline still throws, with the last status and what was awaited', async () => {
    const { client } = scripted([() => payment('approved')]);
    const result = awaitPaymentResult(client, ORDER, PAY, { until: ['settled'], maxWaitMs: 6_000 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(6_000);
    const error = (await result) as ResultTimeoutError;
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(error.lastStatus).toBe('approved');
    expect(error.message).toContain('was still approved after 5.4 s and 3 reads (waiting for settled)');
  });
});

describe('awaitRefundResult', () => {
  it('returns the refund once the processor decided', async () => {
    vi.useFakeTimers({ now: 0 });
    const statuses = ['pending', 'failed'];
    const client: PollingClient = {
      payments: { get: async () => payment('settled') },
      refunds: {
        get: async () =>
          ({
            refund_id: 'r',
            payment_id: PAY,
            order_id: ORDER,
            amount_cents: 1,
            created_at: '',
            status: statuses.shift() ?? 'failed',
            processor_message: 'window closed',
          }) as Refund,
      },
    };
    const result = awaitRefundResult(client, ORDER, PAY, '11111111-2222-4333-8444-555555555555');
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(result).resolves.toMatchObject({ status: 'failed', processor_message: 'window closed' });
    vi.useRealTimers();
  });
});
