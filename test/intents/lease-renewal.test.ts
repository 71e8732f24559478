// api.md 22: on a store that survives a restart and renews leases, a call holds its key with a short
// lease renewed while it runs (so the keys of a process that dies free up in seconds: the fleet
// proof is test/fleets/intents.test.ts, "a process killed while it holds keys"); a store that
// forgets, or one without `renew`, gives the call a lease of its whole deadline. The mock's clock
// holds the payment's answer; only the renewal timer is faked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type IntentRecord,
  type IntentStore,
  MemoryIntentStore,
  PaymentsClient,
  SCOPES,
} from '../../src/index.js';
import { loopbackMock, throughFetch } from '../helpers/loopback-mock.js';

const loop = loopbackMock({ front: throughFetch });
const DEADLINE_MS = 60_000;
const PAYMENT = { method: 'card', amount_cents: 1_000 } as const;

/** A memory store that says it survives a restart, and records the leases it is asked for. */
class Recording extends MemoryIntentStore {
  override readonly durable = true;
  readonly leases: number[] = [];
  readonly renewals: number[] = [];
  override begin(draft: IntentRecord, owner: string, leaseMs: number) {
    this.leases.push(leaseMs);
    return super.begin(draft, owner, leaseMs);
  }
  override renew(intent: { key: string }, owner: string, leaseMs: number) {
    this.renewals.push(leaseMs);
    return super.renew(intent, owner, leaseMs);
  }
}

async function held(intentStore: IntentStore, key: string) {
  const client = new PaymentsClient({ ...loop.clientOptions(), scopes: [...SCOPES], intentStore });
  const order = await client.orders.create({
    location_id: loop.mock.fixtures.partners[0]!.locations.payments,
    total_cents: 5_000,
  });
  // The service commits the payment and holds its answer until the mock's clock moves.
  loop.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', delayMs: 1 });
  const call = Promise.resolve(
    client.payments.create(order.order_id, PAYMENT, { idempotencyKey: key, deadlineMs: DEADLINE_MS }),
  );
  await vi.waitFor(() =>
    expect(loop.mock.snapshot().payments.some((p) => p.order_id === order.order_id)).toBe(true),
  );
  return { call };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a call's lease on its key", () => {
  it('on a durable store with renew: 6 s, renewed every 2 s while the call runs, and no longer after it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const store = new Recording();
    const { call } = await held(store, 'renewed');
    expect(store.leases).toEqual([6_000]);
    vi.advanceTimersByTime(6_000);
    await vi.waitFor(() => expect(store.renewals).toEqual([6_000, 6_000, 6_000]));
    loop.mock.clock.advance(1);
    const payment = await call;
    expect((await store.get('renewed'))?.resultId).toBe(payment.payment_id);
    vi.advanceTimersByTime(20_000);
    expect(store.renewals).toHaveLength(3);
  });

  it('a renewal that finds the key no longer held stops renewing', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const store = new Recording();
    const renew = vi.spyOn(store, 'renew').mockResolvedValueOnce(false); // taken over meanwhile
    const { call } = await held(store, 'taken-over');
    vi.advanceTimersByTime(2_000);
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(1));
    vi.advanceTimersByTime(20_000);
    expect(renew).toHaveBeenCalledTimes(1);
    loop.mock.clock.advance(1);
    await call;
  });

  it('on the default store (it forgets): the whole deadline, never renewed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const store = new MemoryIntentStore();
    const renew = vi.spyOn(store, 'renew');
    const { call } = await held(store, 'default');
    vi.advanceTimersByTime(30_000);
    loop.mock.clock.advance(1);
    await call;
    expect(renew).not.toHaveBeenCalled();
  });

  it('on a durable store without renew: the whole deadline', async () => {
    const store = new Recording();
    (store as { renew?: unknown }).renew = undefined;
    const { call } = await held(store, 'no-renew');
    expect(store.leases).toEqual([DEADLINE_MS]);
    loop.mock.clock.advance(1);
    await call;
  });
});
