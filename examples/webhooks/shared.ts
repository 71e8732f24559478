// What every receiver in this folder shares: one createWebhookHandler, with the hand-off to your job
// queue in `onEvent`. The recipes differ only in how their framework hands the request over.
// typecheck-only: what the receivers share; the repository's receiver tests run them (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { pathToFileURL } from 'node:url';
import { PaymentsClient } from 'partner-payments';
import {
  createWebhookHandler,
  type DedupeStore,
  type WebhookEvent,
  type WebhookHandler,
  type WebhookSecret,
} from 'partner-payments/webhooks';

/** Options every example receiver takes. */
export interface ReceiverOptions {
  /**
   * The endpoint's signing secret, a list during a rotation, or a function returning either (called
   * on each delivery, so a secret rotated in your secret manager is picked up without a restart).
   */
  secret: WebhookSecret | (() => WebhookSecret);
  /**
   * Takes a verified, first-time event. Keep it short (hand the event to a job queue): the service
   * waits 30 s at most. Throw when the hand-off fails: the receiver answers 500 and the service retries.
   */
  onEvent(event: WebhookEvent): void | Promise<void>;
  /** @default a MemoryDedupeStore (one instance; several need a shared store such as Redis) */
  dedupe?: DedupeStore;
}

/** The path the examples listen on. */
export const WEBHOOK_PATH = '/webhooks/payments';

/** The receiver every recipe mounts: each kind goes to `onEvent`, a kind added later is logged. */
export function paymentsWebhooks(options: ReceiverOptions): WebhookHandler {
  const { onEvent } = options;
  return createWebhookHandler({
    secret: options.secret,
    dedupe: options.dedupe,
    on: {
      'payment.approved': onEvent,
      'payment.refunded': onEvent,
      'payment.voided': onEvent,
      'payment.cancelled': onEvent,
      'payment.expired': onEvent,
      'payment.reversal_settled': onEvent,
      'payment.reversal_failed': onEvent,
    },
    onUnknown: (event) => console.info(`acknowledged ${event.event_kind}, a kind this SDK does not know yet`),
    onError: (err, { status, event }) => {
      if (status >= 500)
        console.error(`webhook ${event?.event_id ?? '(unverified)'} answered ${status}:`, err);
    },
  });
}

/**
 * Runs `main` when `moduleUrl` is the script being run (`tsx examples/webhooks/express.ts`), with
 * options from the environment and the address to listen on (`PORT`, `HOST`; loopback by default).
 */
export function runIfMain(
  moduleUrl: string,
  main: (options: ReceiverOptions, address: { port: number; host: string }) => Promise<void>,
): void {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const address = { port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' };
  main(optionsFromEnv(), address).then(
    () => console.log(`listening on http://${address.host}:${address.port}${WEBHOOK_PATH}`),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}

/**
 * Options for running an example directly: the secret(s) from the environment, and an `onEvent` that
 * queues the event and re-reads the payment through the client. Events arrive roughly in order, not
 * exactly (spec 6.6): the payment as the API returns it now is the whole picture, the event only a
 * prompt to look.
 */
export function optionsFromEnv(): ReceiverOptions {
  const client = new PaymentsClient(); // PAYMENTS_CLIENT_ID, PAYMENTS_CLIENT_SECRET, PAYMENTS_BASE_URL, ...
  const queue: WebhookEvent[] = [];
  let draining = false;
  const drain = async () => {
    if (draining) return;
    draining = true;
    for (let event = queue.shift(); event; event = queue.shift()) {
      const { order_id, payment_id } = event.resource;
      try {
        const payment = await client.payments.get(order_id, payment_id);
        console.log(`${event.event_kind}: payment ${payment_id} is now ${payment.status}`);
      } catch (err) {
        console.error(`could not re-read payment ${payment_id}:`, err);
      }
    }
    draining = false;
  };
  return {
    secret: () => [process.env.PAYMENTS_WEBHOOK_SECRET, process.env.PAYMENTS_WEBHOOK_SECRET_PREVIOUS],
    onEvent(event) {
      queue.push(event); // in production: a durable queue (SQS, a jobs table, BullMQ)
      void drain();
    },
  };
}
