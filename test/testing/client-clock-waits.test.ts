/**
 * The client's other waits on a manual-clock mock: the rate limiter's wait for a slot, and the
 * reconciliation of a lost payment answer (its settle window and its re-reads), end when the test
 * moves the mock's clock, in well under a second of real time, with the same outcome as in real time.
 */
import { describe, expect, it } from 'vitest';
import { PaymentsClient, type PaymentsClientOptions } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';

/** A manual-clock mock and a client made from its options, counting the API requests by path. */
function setUp(options: PaymentsClientOptions = {}, onAnswer?: (request: Request) => void) {
  const mock = createMockService({ clock: { realTime: false } });
  const sent: string[] = [];
  const fetch = async (...[input, init]: Parameters<typeof globalThis.fetch>) => {
    const request = new Request(input, init);
    const { pathname } = new URL(request.url);
    if (!pathname.endsWith('/oauth2/token')) sent.push(`${request.method} ${pathname}`);
    const answer = await mock.fetch(request);
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
