// A client's exactly-once wiring (api.md 17): the reads that reconciliation makes through the
// client's own resources, and the intent runner over them and the client's intent store.
import type { IntentIO } from './core/intents/reconcile.js';
import { IntentRunner } from './core/intents/runner.js';
import type { EventSink } from './core/observe/events.js';
import type { LogFn } from './core/observe/logger.js';
import type { ResolvedOptions } from './core/options/options.js';
import type { IntentStore } from './core/stores/intent-store.js';
import type { Orders } from './resources/orders.js';
import type { Payments } from './resources/payments.js';
import type { Refunds } from './resources/refunds.js';

/** What reconciliation reads, and the runner of payment and refund creations, for one client. */
export interface ClientIntents {
  /** The store and the reads (also what `client.recover()` settles intents with). */
  io: IntentIO;
  runner: IntentRunner;
}

/** The exactly-once wiring of a client whose resources are `client`'s, on `store`. */
export function clientIntents(
  client: { orders: Orders; payments: Payments; refunds: Refunds },
  store: IntentStore,
  resolved: ResolvedOptions,
  events: EventSink,
  log: LogFn | undefined,
): ClientIntents {
  const io: IntentIO = {
    store,
    log,
    settleMs: resolved.settleMs,
    readOrder: async (orderId, signal) => {
      const before = Date.now();
      const { data, headers } = await client.orders.get(orderId, { signal }).withResponse();
      return { payments: data.payments, date: headers.date, before, after: Date.now() };
    },
    readPayment: (orderId, paymentId, signal) => client.payments.get(orderId, paymentId, { signal }),
    readRefund: (orderId, paymentId, refundId, signal) =>
      client.refunds.get(orderId, paymentId, refundId, { signal }),
  };
  const runner = new IntentRunner({
    ...io,
    events,
    reconcile: resolved.reconcile,
    deadlineMs: resolved.deadlineMs,
    maxRetries: resolved.maxRetries,
  });
  return { io, runner };
}
