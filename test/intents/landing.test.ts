// One store round trip on the caller's path (issue 42): with an intent store that answers
// asynchronously (a fleet store), a keyed payment resolves as soon as its POST answers; the record
// lands behind it. Until it lands the key is held, never new: the same client waits for the landing,
// another client sharing the store finds the lease held and then the landed payment; neither sends a
// second POST. The positive control: a store that releases the key before recording it (the defect
// this guards against) lets the second client pay again, and the same count catches it.
import { beforeEach, describe, expect, it } from 'vitest';
import { type IntentStore, MemoryIntentStore, PaymentsClient, SCOPES } from '../../src/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';

let posts = 0;

const loop = loopbackMock({
  front: (request, mock) => {
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/payments')) posts++;
    return mock.fetch(request);
  },
});
const { mock } = loop;
beforeEach(() => {
  posts = 0;
});

/**
 * A fleet-like store over a memory one: every call answers on a later turn (not the SDK's own
 * store, so the runner takes its async path), and a landing write (`put` with `release` and a
 * landed state) waits for `open()`. `leaky` releases the key before that write waits (the defect).
 */
function slowStore(leaky = false) {
  const inner = new MemoryIntentStore();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const landings: string[] = [];
  const store: IntentStore = {
    begin: async (draft, owner, leaseMs) => inner.begin(draft, owner, leaseMs),
    put: async (record, owner, release) => {
      if (release && record.state === 'landed') {
        landings.push(record.key);
        if (leaky) await inner.put({ ...record, state: 'not_landed' }, owner, true);
        await gate;
        if (leaky) return 'lost';
      }
      return inner.put(record, owner, release);
    },
    get: async (key) => inner.get(key),
    forOrder: async (orderId) => inner.forOrder(orderId),
    unfinished: async (olderThanMs) => inner.unfinished(olderThanMs),
    noteRefund: async (sighting) => inner.noteRefund(sighting),
    refundsOf: async (paymentId) => inner.refundsOf(paymentId),
  };
  return { store, open, landings };
}

function client(intentStore: IntentStore) {
  return new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    settleMs: 50,
    intentStore,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

const PARAMS = { method: 'card', amount_cents: 1_000 } as const;

async function newOrder(c: PaymentsClient) {
  const locationId = mock.fixtures.partners[0]!.locations.payments;
  return (await c.orders.create({ location_id: locationId, total_cents: 5_000 })).order_id;
}

describe('a keyed payment on an asynchronous intent store', () => {
  it('resolves before its record lands; the same key, here and in another client, gets that payment with no second POST', async () => {
    const { store, open, landings } = slowStore();
    const a = client(store);
    const b = client(store); // another instance of the fleet, sharing the store
    const orderId = await newOrder(a);
    const first = await a.payments.create(orderId, PARAMS, { idempotencyKey: 'landing-1' });
    expect(landings).toEqual(['landing-1']); // the landing write was made, and is still waiting
    expect((await store.get('landing-1'))?.state).toBe('open');
    const again = a.payments.create(orderId, PARAMS, { idempotencyKey: 'landing-1' });
    const elsewhere = b.payments.create(orderId, PARAMS, { idempotencyKey: 'landing-1' });
    setTimeout(open, 100);
    const [x, y] = await Promise.all([again, elsewhere]);
    expect([x.payment_id, y.payment_id]).toEqual([first.payment_id, first.payment_id]);
    expect(posts).toBe(1);
    expect(mock.snapshot().payments.filter((p) => p.order_id === orderId)).toHaveLength(1);
    expect((await store.get('landing-1'))?.state).toBe('landed');
  });

  it('positive control: a store that frees the key before recording it lets another client pay again (the count catches it)', async () => {
    const { store, open } = slowStore(true);
    const a = client(store);
    const b = client(store);
    const orderId = await newOrder(a);
    await a.payments.create(orderId, PARAMS, { idempotencyKey: 'landing-2' });
    const elsewhere = await b.payments.create(orderId, PARAMS, { idempotencyKey: 'landing-2' });
    open();
    expect(elsewhere.payment_id).toBeDefined();
    expect(posts).toBe(2);
  });
});
