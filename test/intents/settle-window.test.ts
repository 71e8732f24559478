// settleMs counts from when a payment request could last have reached the service, not from before
// the SDK's own waits: a send that leaves late (a slow intent-store write, a token to mint) and whose
// answer is lost must not be called "not landed" while the service may still be processing it.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type IntentRecord,
  MemoryIntentStore,
  PaymentsClient,
  type ReconcileEvent,
  SCOPES,
} from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';

/** The settle window of these clients; the service below commits well within it of receiving. */
const SETTLE_MS = 300;
/** How long the service takes to commit the lost request after receiving it (< SETTLE_MS). */
const PROCESSING_MS = 150;
/** How long the write before the send takes (a busy store); the request leaves after it. */
const SLOW_WRITE_MS = 400;

const mock = createMockService();
const timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const t of timers) clearTimeout(t);
  mock.reset();
});

/** A store whose first write of an intent about to be sent takes SLOW_WRITE_MS. */
class SlowFirstSendStore extends MemoryIntentStore {
  override async put(record: IntentRecord, owner: string, release: boolean) {
    if (record.state === 'open' && record.sends === 1) await new Promise((r) => setTimeout(r, SLOW_WRITE_MS));
    return super.put(record, owner, release);
  }
}

describe('the settle window', () => {
  it('does not conclude "not landed" before settleMs has passed since the request could have left', async () => {
    let lost = false;
    const fetch = async (...[input, init]: Parameters<typeof globalThis.fetch>) => {
      const request = new Request(input, init);
      const isCreate = request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments');
      if (isCreate && !lost) {
        lost = true;
        // The service got it and commits it PROCESSING_MS later; the connection breaks at once.
        const copy = request.clone();
        timers.push(setTimeout(() => void mock.fetch(copy), PROCESSING_MS));
        throw Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        });
      }
      return mock.fetch(request);
    };
    const options = {
      ...mock.credentials,
      baseUrl: 'https://api.payments.test',
      authUrl: 'https://api.payments.test',
      scopes: [...SCOPES],
      fetch,
    };
    const setup = new PaymentsClient(options);
    const order = await setup.orders.create({
      location_id: mock.fixtures.partners[0]!.locations.payments,
      total_cents: 5_000,
    });
    const client = new PaymentsClient({
      ...options,
      settleMs: SETTLE_MS,
      intentStore: new SlowFirstSendStore(),
    });
    const events: ReconcileEvent[] = [];
    client.on('reconcile', (e) => events.push(e));

    const result = await client.payments
      .create(order.order_id, { method: 'card', amount_cents: 1_000 }, { idempotencyKey: 'late' })
      .then(
        (p) => p.payment_id,
        (e: unknown) => e,
      );
    await new Promise((r) => setTimeout(r, PROCESSING_MS + 50)); // the lost request has committed
    const payments = mock.snapshot().payments.filter((p) => p.order_id === order.order_id);
    expect(events.map((e) => e.outcome)).not.toContain('not_landed');
    expect(payments).toHaveLength(1);
    expect(result).toBe(payments[0]!.payment_id);
  });
});
