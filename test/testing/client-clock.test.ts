/**
 * Issue 53, items 3 and 4 (api.md 25): a client made from `mock.clientOptions()` on a manual clock
 * waits on the mock's clock (polling, `awaitResult`, `until`, retry back-off end when the test moves
 * it), a real-time mock keeps real time, and a deadline ends a wait with one last read before it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, PaymentsClient, ResultTimeoutError } from '../../src/index.js';
import { createMockService, type MockServiceOptions } from '../../src/testing/index.js';

function setUp(options: MockServiceOptions) {
  const mock = createMockService(options);
  const client = new PaymentsClient({ ...mock.clientOptions(), fetch: mock.fetch });
  const order = { location_id: mock.fixtures.partners[0]!.locations.payments, total_cents: 700 };
  return { mock, client, order };
}
const manual = { autoProcess: { approveAfterMs: 1_500, settleAfterMs: 5_000 }, clock: { realTime: false } };

/** Real milliseconds `run` took. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a manual-clock mock: the client waits on its clock', () => {
  it('awaitPaymentResult resolves as soon as the test advances past the approval (not 3 s later)', async () => {
    const { mock, client, order } = setUp(manual);
    const made = await client.orders.create(order);
    const payment = await client.payments.create(made.order_id, { method: 'card', amount_cents: 700 });
    const { value, ms } = await timed(async () => {
      const reads: string[] = [];
      const waiting = client.awaitPaymentResult(made.order_id, payment.payment_id, {
        onPoll: (p) => reads.push(p.status ?? '?'),
      });
      await vi.waitFor(() => expect(reads).toEqual(['pending'])); // read once, now waiting 3 s
      mock.clock.advance(1_500);
      return waiting;
    });
    expect(value.status).toBe('approved');
    expect(ms).toBeLessThan(1_000);
  });

  it('charge({ awaitResult }) advanced from onPoll: approved, then settled with until, in well under a second', async () => {
    const { mock, client, order } = setUp(manual);
    const advance = () => mock.clock.advance(1_500);
    const { value, ms } = await timed(() =>
      client.charge({ idempotencyKey: 'clock-1', order, awaitResult: { onPoll: advance } }),
    );
    expect(value.payment.status).toBe('approved');
    const settled = await timed(() =>
      client.awaitPaymentResult(value.order.order_id, value.payment.payment_id, {
        until: ['settled'],
        onPoll: advance,
      }),
    );
    expect(settled.value.status).toBe('settled');
    expect(ms + settled.ms).toBeLessThan(1_000);
  });

  it("retry back-off: a 429's Retry-After of 5 s ends when the test advances the clock", async () => {
    const { mock, client } = setUp(manual);
    mock.failNext({ method: 'GET', path: /^\/pos\/v1\/locations/, status: 429, retryAfter: 5 });
    const delays: number[] = [];
    client.on('retry', ({ delayMs }) => {
      delays.push(delayMs);
      mock.clock.advance(delayMs);
    });
    const { value, ms } = await timed(async () => await client.locations.list());
    expect(value.items.length).toBeGreaterThan(0);
    expect(delays).toEqual([5_000]);
    expect(ms).toBeLessThan(1_000);
  });

  it('a wait the test never moves still lasts its time in real time (slow, never stuck)', async () => {
    const { mock, client, order } = setUp({ clock: { realTime: false } });
    const made = await client.orders.create(order);
    const payment = await client.payments.create(made.order_id, { method: 'card', amount_cents: 700 });
    const error = await client
      .awaitPaymentResult(made.order_id, payment.payment_id, { intervalMs: 20, maxWaitMs: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(mock.snapshot().payments[0]?.status).toBe('pending');
  });
});

describe('aborting a wait on the mock clock', () => {
  it('rejects at once and leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, order } = setUp({ clock: { realTime: false } });
    const made = await client.orders.create(order);
    const payment = await client.payments.create(made.order_id, { method: 'card', amount_cents: 700 });
    const before = vi.getTimerCount(); // the client's own (a token refresh)
    const controller = new AbortController();
    const reads: number[] = [];
    const waiting = client
      .awaitPaymentResult(made.order_id, payment.payment_id, {
        signal: controller.signal,
        onPoll: (p) => reads.push(p.attempt),
      })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(reads).toEqual([1]));
    // The poll's 3 s wait (counted from here: a timer another file's client left in this worker may
    // arm itself on the faked setTimeout meanwhile, when files share a worker's modules).
    const during = vi.getTimerCount();
    expect(during).toBeGreaterThanOrEqual(before + 1);
    controller.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(vi.getTimerCount()).toBe(during - 1);
  });
});

describe('a real-time mock keeps real time', () => {
  it('its client options carry no wait clock; a manual one does (the control)', () => {
    const real = createMockService({ autoProcess: true });
    const manualMock = createMockService({ clock: { realTime: false } });
    expect(Object.getOwnPropertySymbols(real.clientOptions())).toEqual([]);
    expect(Object.getOwnPropertySymbols(manualMock.clientOptions())).toHaveLength(1);
    real.close();
  });

  it('moving a real-time mock clock does not cut a wait short', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: Date.parse('2026-11-20T10:00:00Z'),
    });
    const { mock, client, order } = setUp({ autoProcess: { approveAfterMs: 60_000 } });
    const made = await client.orders.create(order);
    const payment = await client.payments.create(made.order_id, { method: 'card', amount_cents: 700 });
    const reads: number[] = [];
    const waiting = client.awaitPaymentResult(made.order_id, payment.payment_id, {
      onPoll: (p) => reads.push(p.elapsedMs),
    });
    await vi.advanceTimersByTimeAsync(0);
    mock.clock.advance(60_000);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(reads).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await waiting).status).toBe('approved');
    expect(reads).toEqual([0, 3_000]);
    mock.close();
  });
});

describe('a deadline ends a wait with one last read just before it (the bin in demo mode)', () => {
  it('charge({ awaitResult: true }, { deadlineMs: 2000 }) returns the payment approved at 1.5 s', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: Date.parse('2026-11-20T10:00:00Z'),
    });
    const { mock, client, order } = setUp({ autoProcess: { approveAfterMs: 1_500 } });
    const reads: number[] = [];
    const charging = client.charge(
      { idempotencyKey: 'deadline-1', order, awaitResult: { onPoll: (p) => reads.push(p.elapsedMs) } },
      { deadlineMs: 2_000 },
    );
    await vi.advanceTimersByTimeAsync(2_000);
    const { payment } = await charging;
    expect(payment.status).toBe('approved');
    expect(reads).toHaveLength(2);
    expect(reads[1]).toBeLessThan(2_000);
    mock.close();
  });

  it('a wait that ends first says how long it waited, how many reads it made, and to wait longer', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: Date.parse('2026-11-20T10:00:00Z'),
    });
    const { mock, client, order } = setUp({ autoProcess: { approveAfterMs: 1_500 } });
    const charging = client
      .charge({ idempotencyKey: 'deadline-2', order, awaitResult: true }, { deadlineMs: 1_000 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = (await charging) as ResultTimeoutError;
    expect(error).toBeInstanceOf(ResultTimeoutError);
    expect(error.reads).toBe(2);
    expect(error.message).toMatch(/was still pending after \d+ ms and 2 reads\./);
    expect(error.waitedMs).toBeLessThan(1_000);
    expect(error.message).toContain('give the wait longer than that');
    expect(error.message).not.toMatch(/createMockService\(\{ autoProcess: true \}\)\)$/);
    mock.close();
  });
});
