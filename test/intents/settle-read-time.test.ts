// "Not landed" must be concluded from an order read that the service answered from its state after
// settleMs had passed since the send, not from a read that was only *answered* after it. Here the
// service spends less than settleMs on the payment (the documented rule holds), but the read that
// was sent before settleMs, and saw no payment yet, arrives after it.
import { expect, it } from 'vitest';
import { PaymentsClient, SCOPES } from '../../src/index.js';
import { loopbackMock } from '../helpers/loopback-mock.js';

/**
 * The payment's attempts time out after 200 ms; reads (the client's timeoutMs) after 2 s. settleMs
 * is far above the 200 ms the service spends on the payment, so that a stall of the test's own
 * process between the send and the first read cannot make that read legitimately "settled".
 */
const TIMEOUT_MS = 200;
const SETTLE_MS = 1_000;

/** When the payment POST reached the service; the first order read's state; the first commit. */
let postAt = 0;
let observed: () => void = () => {};
let committed: () => void = () => {};
let posts = 0;
let reads = 0;

const readObserved = new Promise<void>((resolve) => {
  observed = resolve;
});
const firstCommitted = new Promise<void>((resolve) => {
  committed = resolve;
});
const loop = loopbackMock(
  {
    front: async (request, mock) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path.endsWith('/payments') && ++posts === 1) {
        // The first send: processed after the client gave up on it (past its 200 ms timeout) and
        // after the first read saw the order, but well within settleMs of the send.
        postAt = Date.now();
        await readObserved;
        const answer = await mock.fetch(request);
        committed();
        return answer;
      }
      if (request.method === 'GET' && /^\/pos\/v1\/orders\/[^/]+$/.test(path) && ++reads === 1) {
        // The first read: the order's state now (no payment yet), answered once settleMs has passed.
        const answer = await mock.fetch(request);
        observed();
        await firstCommitted;
        const wait = postAt + SETTLE_MS + 50 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        return answer;
      }
      return mock.fetch(request);
    },
  },
  { reset: false },
);
const { mock } = loop;

it('a read sent before settleMs that saw no payment does not make the payment "not landed"', async () => {
  const c = new PaymentsClient({
    ...loop.clientOptions(),
    scopes: [...SCOPES],
    timeoutMs: 2_000,
    settleMs: SETTLE_MS,
  });
  const location = mock.fixtures.partners[0]?.locations.payments ?? '';
  const { order_id: orderId } = await c.orders.create({ location_id: location, total_cents: 5_000 });
  const payment = await c.payments.create(
    orderId,
    { method: 'card', amount_cents: 1_000 },
    { idempotencyKey: 'settle-read', timeoutMs: TIMEOUT_MS },
  );
  const payments = mock.snapshot().payments.filter((p) => p.order_id === orderId);
  // The service took under settleMs from the send to the commit.
  expect(Date.parse(payments[0]?.created_at ?? '') - postAt).toBeLessThan(SETTLE_MS);
  // Today: 2 payments (the read's verdict is judged at its arrival, after settleMs: "not landed").
  expect(payments.map((p) => p.payment_id)).toEqual([payment.payment_id]);
});
