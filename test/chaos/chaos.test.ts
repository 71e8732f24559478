// Issue 10: every promise holds under faults. A seeded TCP proxy breaks about 13% of requests on
// their way to and from the shipped mock (in a child process); 3,000 mixed calls at concurrency 32
// through both transports must keep every promise, and the clients' heap must not grow by 5 MB.
// Issue 23: money moves exactly once. Payments (over 1,000 of the calls) and refunds are made under
// idempotency keys through the same faults, after-commit ones included: one payment or refund per
// key, every payment a call returns (adopted or answered) is its own key's, and at most 1 payment
// call in 1,000 ends outcomeUnknown. `npm run soak -- --calls 20000` runs the same harness longer
// (docs/reliability.md).
// Issue 40: checkouts (`client.charge`, an order and its payment under one key), rerun with the same
// key on every failure: exactly one order and one payment per key in the mock's records.
import { expect, it, describe as suite, vi } from 'vitest';
import { hashSeed, pickFault } from './faults.js';
import { assertLoopback, runChaos } from './harness.js';
import { LagMonitor, Overruns } from './lag.js';
import { describe } from './report.js';
import { SecretScanner } from './secrets.js';
import { FAULTS } from './types.js';

const CALLS = 3_000;
// About 30 s on an idle 2-core machine; longer when other test runs share it.
const BUDGET_MS = 180_000;

/** The fault the proxy draws for attempt `attempt` of call `callId` (as proxy.ts does). */
function schedule(seed: number, rate: number): string[] {
  return Array.from({ length: 400 }, (_, i) => {
    const random = hashSeed(seed, `chaos-${seed}-${i >> 1}#${(i & 1) + 1}`);
    return random() < rate ? pickFault(random) : 'none';
  });
}

suite('the chaos harness itself', () => {
  it('draws the same faults from the same seed, other faults from another', () => {
    expect(schedule(10, 0.13)).toEqual(schedule(10, 0.13));
    expect(schedule(10, 0.13)).not.toEqual(schedule(11, 0.13));
    expect(new Set(schedule(10, 1))).toEqual(new Set(FAULTS));
  });

  it('targets loopback addresses only', () => {
    expect(() => assertLoopback('http://127.0.0.1:4010')).not.toThrow();
    expect(() => assertLoopback('http://[::1]:4010')).not.toThrow();
    expect(() => assertLoopback('http://10.0.0.8:4010')).toThrow(/loopback/);
    expect(() => assertLoopback('https://api.payments.example.com')).toThrow(/loopback/);
  });

  it('finds a planted secret however it is written', () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const scanner = new SecretScanner([
      [token, 'an access token'],
      ['mock-secret-a-all-scopes', 'the client secret'],
      ['has spaces and/slashes', 'an odd secret'],
    ]);
    expect(scanner.scan(`debug {"authorization":"Bearer ${token}"}`)).toEqual(['an access token']);
    expect(scanner.scan(`https://x.test/checkout?token=${token}&a=1`)).toEqual(['an access token']);
    expect(scanner.scan("PaymentsClient { clientSecret: 'mock-secret-a-all-scopes' }")).toEqual([
      'the client secret',
    ]);
    expect(scanner.scan('x has spaces and/slashes y')).toEqual(['an odd secret']);
    expect(scanner.scan(`Bearer ${token.slice(0, 20)}… [REDACTED]`)).toEqual([]);
  });

  it('excuses an overrun by the stalls of the event loop at the time, and no other', () => {
    // On fake time: `performance.now()` is a number this test moves, and the monitor's timers fire
    // only when it says. A stall is time passing while no timer runs; a quiet wait is time passing
    // with the monitor's timer firing every 10 ms.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const pass = (ms: number) => {
      for (let t = 0; t < ms; t += 10) {
        now += 10;
        vi.advanceTimersByTime(10);
      }
    };
    const stall = (ms: number) => {
      now += ms - 10; // the loop is blocked: no timer runs meanwhile, then the next tick is late
      pass(10);
    };
    const lag = new LagMonitor();
    lag.start();
    const overruns = new Overruns(250, lag);
    try {
      pass(30);
      // A blocked loop: an attempt due when the loop stalled for 450 ms, ending 400 ms late, is the machine's.
      const due = now;
      stall(450);
      pass(30);
      overruns.note('stalled', due, due + 400);
      // A quiet loop: an attempt that ends 600 ms after it was due overran by 600 ms, unexcused.
      const quiet = now;
      pass(600);
      overruns.note('quiet', quiet, now);
      pass(150);
      overruns.judge();
      expect(lag.max).toBeGreaterThan(400);
      expect(overruns.unexplained).toBe(1);
      expect(overruns.explained).toBe(1);
      expect(overruns.examples[0]).toMatch(/^quiet: overran by 600 ms/);
    } finally {
      lag.stop();
      overruns.stop();
      vi.useRealTimers();
    }
  });

  it(
    'fails when an order is created twice for one key (a deliberately broken service)',
    async () => {
      const run = await runChaos({
        calls: 60,
        warmup: 0,
        concurrency: 8,
        seed: 3,
        faultRate: 0,
        duplicateOrders: true,
      });
      expect(run.server.created.orders).toBeGreaterThan(0);
      expect(run.broken.some((line) => /^key .+: 2 orders$/.test(line))).toBe(true);
      expect(run.broken.some((line) => /: 2 orders created$/.test(line))).toBe(true);
    },
    BUDGET_MS,
  );

  it(
    'fails when a key charges twice or a call returns a payment its key did not make',
    async () => {
      // settleMs 100: below the 1.1 to 1.6 s a slow_request takes to reach the mock, so a payment
      // still on its way counts as not landed and is sent again; and a planted wrong adoption.
      const run = await runChaos({
        calls: 40,
        warmup: 0,
        concurrency: 8,
        seed: 3,
        faultRate: 0.5,
        faults: ['slow_request', 'truncated_json'],
        weights: { 'payments.create': 1 },
        settleMs: 100,
        plantWrongAdoption: true,
      });
      const twice = /^key key-.+: [2-9] payments of \d+ cents on order /;
      expect(run.broken.some((line) => twice.test(line))).toBe(true);
      expect(run.broken.some((line) => /: [2-9] payments created$/.test(line))).toBe(true);
      expect(run.server.keyed.maxPaymentsPerKey).toBeGreaterThanOrEqual(2);
      expect(
        run.broken.some((line) =>
          /payments\.create: returned payment .+, adopted, which no call \(the order’s decoy\) created$/.test(
            line,
          ),
        ),
      ).toBe(true);
      expect(run.server.keyed.wrong).toBeGreaterThan(0);
    },
    BUDGET_MS,
  );

  it(
    'fails when a rerun checkout makes a second order (the naive order-then-payment, planted)',
    async () => {
      // 60% of the requests answered 503 (half of them after the mock committed): some runs fail
      // after their order was made, and the rerun of the naive checkout (no key on the order) makes
      // another.
      const run = await runChaos({
        calls: 8,
        warmup: 0,
        concurrency: 8,
        seed: 3,
        faultRate: 0.6,
        faults: ['status_503'],
        weights: { charge: 1 },
        settleMs: 100, // a payment reconciles at once (the mock commits before it answers): a short run
        plantNaiveCheckout: true,
      });
      expect(run.checkouts.rerunKeys).toBeGreaterThan(0);
      expect(run.server.checkouts.maxOrdersPerKey).toBeGreaterThanOrEqual(2);
      expect(run.broken.some((line) => /^checkout checkout-.+: [2-9] orders, 1 payments$/.test(line))).toBe(
        true,
      );
    },
    BUDGET_MS,
  );
});

it(
  `${CALLS} mixed calls at concurrency 32 through both transports keep every promise under faults`,
  async () => {
    const run = await runChaos({ calls: CALLS, concurrency: 32, seed: 10, warmup: 400 });
    console.log(describe(run));

    expect(run.broken).toEqual([]);
    expect(run.calls).toBe(CALLS);
    expect(run.ok + run.failed).toBe(CALLS);
    expect(run.notPaymentsError).toBe(0);
    expect(run.unhandled).toBe(0);
    // The faults were really played, all of them, and some calls really failed.
    expect(run.server.proxy.faulted).toBeGreaterThan(200);
    for (const [fault, n] of Object.entries(run.server.proxy.faults)) expect(n, fault).toBeGreaterThan(0);
    expect(run.failed).toBeGreaterThan(0);
    expect(run.outcomeUnknown).toBeGreaterThan(0);
    expect(run.server.proxy.abandoned).toBeGreaterThan(0);
    // The secret scan had something to look for, and finds a planted one.
    expect(run.transcript.secretsScanned).toBeGreaterThan(10);
    expect(run.transcript.controlFound).toBe(true);
    expect(run.transcript.found).toEqual({});
    // Measured from a full intent store (its cap, 150, reached in the warm-up), so that what it keeps
    // by design is not growth (docs/reliability.md, the heap check).
    expect(run.heap.intents.baseline).toBeGreaterThanOrEqual(0.8 * run.options.maxIntents);
    // A bound, not a figure: 0.72 to 0.90 MB measured (docs/reliability.md), so 5 MB leaves a busy
    // machine's GC five times the room, while a leak of 2 KB per call (a kept listener, response or
    // error) over these 3,000 calls still fails it. The figure itself is the bench's (memory section).
    expect(run.heap.growthBytes).toBeLessThan(5 * 1_048_576);

    // Issue 23: payments and refunds under keys. Over 1,000 payment calls, for the 1 in 1,000.
    const { payments, refunds } = run.keyed;
    expect(payments.calls).toBeGreaterThanOrEqual(1_000);
    expect(refunds.calls).toBeGreaterThan(100);
    // One payment per key, one refund per key, in the mock's state (run.broken names any other).
    expect(run.server.keyed.maxPaymentsPerKey).toBe(1);
    expect(run.server.keyed.maxRefundsPerKey).toBe(1);
    // Every payment or refund returned, adopted ones included, is the one its own call created.
    expect(run.server.keyed.wrong).toBe(0);
    expect(run.server.keyed.results).toBeGreaterThan(payments.ok);
    expect(payments.adopted).toBeGreaterThan(20);
    // Today's level (reconcile 'off' ends every one of these in outcomeUnknown) was really met...
    expect(payments.reconciled / payments.calls).toBeGreaterThan(0.05);
    expect(payments.verdicts.landed).toBeGreaterThan(20);
    expect(payments.verdicts.not_landed).toBeGreaterThan(5);
    // ... and at most 1 payment call in 1,000 still ends outcomeUnknown.
    expect(payments.unknown / payments.calls).toBeLessThanOrEqual(0.001);

    // Issue 40: every checkout resolved by its reruns, each key exactly one order and one payment.
    const { checkouts } = run;
    expect(checkouts.keys).toBeGreaterThan(100);
    expect(checkouts.unresolved).toBe(0);
    expect(checkouts.ok).toBe(checkouts.keys);
    expect(run.server.checkouts.exactlyOne).toBe(run.server.checkouts.keys);
    expect(run.server.checkouts.maxOrdersPerKey).toBe(1);
    expect(run.server.checkouts.maxPaymentsPerKey).toBe(1);
    expect(run.server.checkouts.wrong).toBe(0);
    expect(run.server.checkouts.results).toBe(run.server.checkouts.keys);
  },
  BUDGET_MS,
);
