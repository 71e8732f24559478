// client.withOptions({ rateLimit }): a derived client with a rate limit of its own (its own limiter),
// still sharing its parent's token; without the option it waits in its parent's bucket.
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  MemoryRateLimitStore,
  PaymentsClient,
  type PaymentsClientOptions,
  RateLimitError,
} from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';
import { caught } from '../helpers/caught.js';
import { countingFetch } from '../helpers/counting-fetch.js';

const ORDER = '3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f';

/** A client on an in-process mock (its own limiter off), counting token and API requests. */
function setup() {
  const mock = createMockService({ rateLimits: false });
  const counts = { token: 0, api: 0 };
  const client = (options: PaymentsClientOptions = {}) =>
    new PaymentsClient({
      ...mock.clientOptions(),
      maxRetries: 0,
      logLevel: 'off',
      fetch: countingFetch(mock, counts),
      ...options,
    });
  return { counts, client };
}

/** Sends `n` gets one after the other; resolves how many were refused by the rate limit before sending. */
async function refusals(client: PaymentsClient, n: number): Promise<number> {
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const error = await caught(client.orders.get(ORDER));
    if (error instanceof RateLimitError) refused++;
  }
  return refused;
}

describe('withOptions({ rateLimit })', () => {
  it('gives the derived client a limiter of its own, while it shares the parent’s token', async () => {
    const { counts, client } = setup();
    const parent = client({ rateLimit: { tier: 'high' } });
    // 2 at once (less the 250 ms reserve), then 1 per second: a third call within 300 ms gets no slot.
    const strict = parent.withOptions({ rateLimit: { perSecond: 1, burst: 2 }, deadlineMs: 300 });
    await parent.orders.get(ORDER).catch(() => {}); // the parent mints the token
    expect(await refusals(strict, 3)).toBe(1);
    expect(await refusals(parent, 5)).toBe(0); // the parent's own (high) bucket is untouched
    expect(counts.token).toBe(1); // the derived client minted nothing
  });

  it('without the option a derived client waits in its parent’s bucket', async () => {
    const { client } = setup();
    const parent = client({ rateLimit: { perSecond: 1, burst: 2 }, deadlineMs: 300 });
    const derived = parent.withOptions({ maxRetries: 0 });
    expect(await refusals(parent, 2)).toBe(0);
    expect(await refusals(derived, 1)).toBe(1); // the two slots were the parent's, and so the derived client's
  });

  it('adds a limit to a client that had none, with a shared store', async () => {
    const { counts, client } = setup();
    const parent = client();
    const store = new MemoryRateLimitStore();
    const limited = parent.withOptions({ rateLimit: { perSecond: 1, burst: 2, store }, deadlineMs: 300 });
    const sibling = parent.withOptions({ rateLimit: { perSecond: 1, burst: 2, store }, deadlineMs: 300 });
    expect(await refusals(limited, 2)).toBe(0);
    expect(await refusals(sibling, 1)).toBe(1); // one bucket for the machine client, through the store
    expect(await refusals(parent, 3)).toBe(0);
    expect(counts.token).toBe(1);
  });

  it('checks the limit like the constructor does', () => {
    const { client } = setup();
    expect(() => client().withOptions({ rateLimit: { perSecond: 0, burst: 1 } })).toThrow(ConfigurationError);
  });
});
