// What every receiver in this folder does once its framework has handed over the raw body and the
// signature header.
import { pathToFileURL } from 'node:url';
import { PaymentsClient } from 'partner-payments';
import {
  createDeduplicator,
  type Deduplicator,
  type WebhookEvent,
  type WebhookSecret,
  WebhookVerificationError,
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
  /** @default createDeduplicator() (in memory: use a shared store with several instances) */
  dedupe?: Deduplicator;
}

/** The path the examples listen on. */
export const WEBHOOK_PATH = '/webhooks/payments';

/** What to answer the service. */
export interface ReceiveResult {
  status: 200 | 400 | 500;
  body: { received: boolean; duplicate?: boolean; error?: string };
}

/** Verifies a delivery with the secret(s) it is given: the framework-specific part of a receiver. */
export type VerifyDelivery = (secret: WebhookSecret) => WebhookEvent | Promise<WebhookEvent>;

/**
 * The part every receiver shares: verify (through the receiver's `verify`), de-duplicate on `event_id`,
 * hand the event over. 400 for a delivery that fails verification (do not act on it), 200 for a
 * redelivery without calling `onEvent` again, 500 when the hand-off failed (the claim is released, so
 * the service's retry is processed).
 */
export function deliveryHandler(
  options: ReceiverOptions,
): (verify: VerifyDelivery) => Promise<ReceiveResult> {
  const dedupe = options.dedupe ?? createDeduplicator();
  return async (verify) => {
    let event: WebhookEvent;
    try {
      event = await verify(typeof options.secret === 'function' ? options.secret() : options.secret);
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        return { status: 400, body: { received: false, error: err.reason } };
      }
      throw err;
    }
    try {
      const outcome = await dedupe.runOnce(event.event_id, () => options.onEvent(event));
      return { status: 200, body: { received: true, duplicate: outcome.duplicate } };
    } catch (err) {
      console.error(`webhook ${event.event_id} (${event.event_kind}) was not handed over:`, err);
      return { status: 500, body: { received: false } };
    }
  };
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
function optionsFromEnv(): ReceiverOptions {
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
