/**
 * The client's other waits on a manual-clock mock: the rate limiter's wait for a slot, and the
 * reconciliation of a lost payment answer (its settle window and its re-reads), end when the test
 * moves the mock's clock, in well under a second of real time, with the same outcome as in real time.
 */
import { describe, expect, it } from 'vitest';
import { PaymentsClient, type PaymentsClientOptions, type ReconcileEvent } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';

/** A manual-clock mock and a client made from its options, counting the API requests by path. */
function setUp(options: PaymentsClientOptions = {}, onAnswer?: (request: Request) => void) {
  const mock = createMockService({ clock: { realTime: false } });
  const sent: string[] = [];
  const fetch = async (...[input, init]: Parameters<typeof globalThis.fetch>) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (!pathname.endsWith('/oauth2/token')) sent.push(`${request.method} ${pathname}`);
    // As `fetch` does, an abort (the client's attempt timeout) rejects at once; the mock goes on.
    const answer = await new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      mock.fetch(request).then(resolve, reject);
    });
    onAnswer?.(request);
    return answer;
  };
  const client = new PaymentsClient({ ...mock.clientOptions(), fetch, ...options });
  const location = mock.fixtures.partners[0]!.locations.payments;
  return { mock, client, sent, location };
}

/** Real milliseconds `run` took. */
async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the client's rate limiter waits on the mock's clock", () => {
  it('five calls past a burst of 2 at 2/s finish as the test advances the clock, in well under a second', async () => {
    const { mock, client, sent } = setUp({ rateLimit: { perSecond: 2, burst: 2 } });
    await client.locations.list(); // the token is minted; the bucket has spent a slot
    const started = mock.clock.now();
    const { value, ms } = await timed(async () => {
      let done = false;
      const calls = Promise.all([1, 2, 3, 4].map(() => client.locations.list())).finally(() => {
        done = true;
      });
      for (let i = 0; i < 5; i++) await turn();
      // Held by the limiter: at most one more slot was free at once.
      expect(sent.length).toBeLessThanOrEqual(2);
      // Each advance refills the bucket by one slot on the client's wait clock.
      for (let i = 0; i < 40 && !done; i++) {
        mock.clock.advance(500);
        for (let t = 0; t < 5 && !done; t++) await turn();
      }
      return calls;
    });
    expect(value).toHaveLength(4);
    for (const page of value) expect(page.items.length).toBeGreaterThan(0);
    expect(sent).toEqual(Array(5).fill('GET /pos/v1/locations'));
    expect(mock.clock.now() - started).toBeGreaterThanOrEqual(1_000); // the slots took mock time
    expect(ms).toBeLessThan(1_000);
  });
});

describe("a lost payment answer is reconciled on the mock's clock", () => {
  /** The test's stand-in for time passing: each order read moves the mock's clock 10 s on. */
  const tenSecondsPerOrderRead = (mock: { clock: { advance(ms: number): void } }) => (request: Request) => {
    if (request.method === 'GET' && /^\/pos\/v1\/orders\/[^/]+$/.test(new URL(request.url).pathname))
      mock.clock.advance(10_000);
  };

  async function lostAnswer(
    options: PaymentsClientOptions,
    plant: (mock: ReturnType<typeof setUp>['mock']) => void,
  ) {
    let advance: (request: Request) => void = () => {};
    const { mock, client, sent, location } = setUp(options, (request) => advance(request));
    advance = tenSecondsPerOrderRead(mock);
    const events: ReconcileEvent[] = [];
    client.on('reconcile', (e) => events.push(e));
    const order = await client.orders.create({ location_id: location, total_cents: 5_000 });
    // The test moved the clock well past settleMs before: only time since the send counts.
    mock.clock.advance(10 * 60_000);
    plant(mock);
    const started = mock.clock.now();
    const { value, ms } = await timed(() =>
      client.payments
        .create(
          order.order_id,
          { method: 'card', amount_cents: 1_000 },
          // A real second bounds the call: a wait in real time fails the test, it does not hang it.
          { idempotencyKey: 'lost-on-the-clock', signal: AbortSignal.timeout(1_500) },
        )
        .catch((e: unknown) => e),
    );
    const payments = mock.snapshot().payments.filter((p) => p.order_id === order.order_id);
    return { value, ms, events, payments, sent, movedMs: mock.clock.now() - started };
  }

  it('a request the mock never processed: "not landed" once settleMs (30 s) passed on the clock, sent again, one payment', async () => {
    const { value, ms, events, payments, sent, movedMs } = await lostAnswer({}, (mock) =>
      mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'before', network: true }),
    );
    expect(events.map((e) => e.outcome)).toEqual(['not_landed']);
    expect(payments.map((p) => p.payment_id)).toEqual([(value as { payment_id?: string }).payment_id]);
    expect(sent.filter((s) => s.startsWith('POST') && s.endsWith('/payments'))).toHaveLength(2);
    expect(movedMs).toBeGreaterThanOrEqual(30_000); // settled by the clock the test moved
    expect(ms).toBeLessThan(1_000);
  });

  it('a request the mock holds 5 s on its clock, its attempt timed out: landed when the clock passes it, not "not landed", one payment', async () => {
    const { value, ms, events, payments, movedMs } = await lostAnswer(
      { timeoutMs: 100, maxRetries: 0 },
      (mock) => mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'before', delayMs: 5_000 }),
    );
    expect(events.map((e) => e.outcome)).toEqual(['landed']);
    expect(payments).toHaveLength(1);
    expect(value).toMatchObject({ payment_id: payments[0]!.payment_id, amount_cents: 1_000 });
    expect(movedMs).toBeLessThan(30_000); // well inside the settle window
    expect(ms).toBeLessThan(1_000);
  });
});
