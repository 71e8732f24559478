// The promises whose keeping depends on the runtime's fetch (its aborts, its timers, its connection
// pool), checked on every runtime of the ecosystem suite: timeouts and deadlines against a body that
// drips, a caller's abort, a payment whose answer is lost on a reused connection, Retry-After. Each
// step arms a fault of the mock through its control API (`POST /_mock/v1/faults`) for one order of
// its own, so the timed steps run side by side.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  CallError,
} from 'partner-payments';

/** Wall-clock bounds of a timed step: never early, late by at most `slack` ms (a loaded machine). */
const SLACK_MS = 1_500;
const within = (elapsed, at) => elapsed >= at - 20 && elapsed < at + SLACK_MS;

/**
 * @param {import('partner-payments').PaymentsClient} client
 * @param {{ baseUrl: string, locationId: string }} input
 * @param {(condition: unknown, what: string) => void} check
 */
export async function runtimePromises(client, input, check) {
  const control = `${new URL(input.baseUrl).origin}/_mock/v1/faults`;
  const arm = async (fault) => {
    const res = await fetch(control, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fault),
    });
    await res.text();
    if (res.status !== 201)
      throw new Error(`the mock refused the fault ${JSON.stringify(fault)}: ${res.status}`);
  };
  const newOrder = async (total = 1_250) =>
    (await client.orders.create({ location_id: input.locationId, total_cents: total })).order_id;
  const orderPath = (id) => `/pos/v1/orders/${id}`;
  // A body of 50 pieces, one every 100 ms: five seconds, longer than any step waits.
  const drip = { drip: { everyMs: 100, chunks: 50 } };
  const timed = async (promise) => {
    const t0 = Date.now();
    const error = await promise.then(
      () => undefined,
      (e) => e,
    );
    return { error, elapsed: Date.now() - t0 };
  };

  const [dripped, deadline, aborted, retried] = await Promise.all([
    newOrder(),
    newOrder(),
    newOrder(),
    newOrder(),
  ]);
  for (const id of [dripped, deadline, aborted]) await arm({ method: 'GET', path: orderPath(id), ...drip });
  await arm({ method: 'GET', path: orderPath(retried), status: 503, retryAfter: 1 });

  const retries = [];
  client.on('retry', (event) => {
    if (event.path === orderPath(retried)) retries.push(event);
  });
  const controller = new AbortController();
  let abortedAt = 0;
  const [slow, late, stopped, again] = await Promise.all([
    timed(client.orders.get(dripped, { timeoutMs: 600, maxRetries: 0 })),
    timed(client.orders.get(deadline, { timeoutMs: 30_000, deadlineMs: 800 })),
    (async () => {
      const call = timed(client.orders.get(aborted, { signal: controller.signal, maxRetries: 0 }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      abortedAt = Date.now();
      controller.abort();
      const { error } = await call;
      return { error, afterAbort: Date.now() - abortedAt };
    })(),
    timed(client.orders.get(retried)),
  ]);

  check(
    slow.error instanceof APIConnectionTimeoutError && within(slow.elapsed, 600),
    `slow-drip body: ${slow.error?.name} at ${slow.elapsed} ms (timeoutMs 600)`,
  );
  check(
    late.error instanceof APIConnectionTimeoutError &&
      /800 ms deadline/.test(late.error.message) &&
      within(late.elapsed, 800),
    `deadlineMs 800 against the drip: ${late.error?.name} at ${late.elapsed} ms`,
  );
  check(
    stopped.error instanceof APIUserAbortError && stopped.afterAbort < 250,
    `caller's abort: ${stopped.error?.name} ${stopped.afterAbort} ms after abort()`,
  );
  check(
    again.error === undefined &&
      retries.length === 1 &&
      retries[0].status === 503 &&
      retries[0].delayMs === 1_000 &&
      within(again.elapsed, 1_000),
    `503 with Retry-After: 1 retried after ${retries[0]?.delayMs} ms, answered at ${again.elapsed} ms`,
  );

  await paymentAnswerLost(client, { arm, newOrder, orderPath, check });
}

/**
 * A payment whose answer is lost after the service committed it, on a connection a read left in the
 * pool: the service must see one POST (one payment; a second would fit the order's total too), and
 * the SDK must say the outcome is unknown. Deno's fetch resends such a request on its own.
 */
async function paymentAnswerLost(client, { arm, newOrder, orderPath, check }) {
  const orderId = await newOrder(2_500);
  await arm({ method: 'POST', path: `${orderPath(orderId)}/payments`, phase: 'after', network: true });
  await client.orders.get(orderId);
  // reconcile: 'off': what the transport reports, before exactly-once reads the order.
  const params = { method: 'card', amount_cents: 1_000 };
  const error = await client.payments.create(orderId, params, { reconcile: 'off' }).then(
    (payment) => new Error(`the payment call succeeded (${payment.payment_id}): the POST was sent again`),
    (e) => e,
  );
  const { payments } = await client.orders.get(orderId);
  check(
    payments.length === 1,
    `answer lost on a pooled connection: the service made ${payments.length} payment(s)`,
  );
  check(
    error instanceof APIConnectionError &&
      !(error instanceof APIConnectionTimeoutError) &&
      error instanceof CallError &&
      error.outcomeUnknown === true,
    `... and the SDK says ${error?.name}, outcomeUnknown: ${error?.outcomeUnknown}`,
  );
  // The same key again, with reconciliation (the default): the one payment is adopted, none is added.
  const adopted = await client.payments
    .create(orderId, params, { idempotencyKey: error?.idempotencyKey })
    .catch((e) => e);
  const after = (await client.orders.get(orderId)).payments;
  check(
    adopted?.payment_id === payments[0]?.payment_id && after.length === 1,
    `... rerun with its key: ${adopted?.payment_id ?? adopted?.name} adopted, ${after.length} payment(s)`,
  );
}
