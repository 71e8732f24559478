// What the mock's webhook deliveries show (spec 6.3 to 6.5): the event envelope, a delivery to one
// endpoint and its attempts, the retry schedule and the size of the event log. WebhookDeliverer
// (deliverer.ts) makes them.
import type { KnownEventKind } from '../../schemas/events.js';

/**
 * Delay before each attempt (spec 6.5): immediate, 1 min, 5 min, 30 min, 2 h, 12 h after the previous one.
 *
 * @example
 * mock.clock.advance(RETRY_SCHEDULE_MS[1]); // the second attempt starts
 */
export const RETRY_SCHEDULE_MS = [0, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;

/** How many of the latest events the mock's event log keeps (`mock.webhooks.events()`). */
export const EVENT_LOG_SIZE = 10_000;

/**
 * The event envelope of spec 6.3.
 *
 * @example
 * const [event] = mock.webhooks.events();
 * expect(event?.event_kind).toBe('payment.approved');
 */
export interface EventEnvelope {
  v: 1;
  event_id: string;
  event_kind: KnownEventKind;
  occurred_at: string;
  partner_id: string;
  resource: Record<string, unknown>;
}

/**
 * One try at delivering an event.
 *
 * @example
 * const [attempt] = mock.webhooks.deliveries()[0]!.attempts;
 * expect(attempt).toMatchObject({ status: 500, ok: false });
 */
export interface DeliveryAttempt {
  /** Mock-clock time of the attempt. */
  at: string;
  /** The receiver's status, or null when it did not answer in time or could not be reached. */
  status: number | null;
  ok: boolean;
  /** Why no answer came: the system's code (`ECONNREFUSED`), `TimeoutError`, or `NotLoopback`. */
  error?: string;
}

/**
 * An event on its way to one endpoint, in the service's snake_case like everything else the mock
 * shows.
 *
 * @example
 * await mock.webhooks.flush();
 * const [delivery] = mock.webhooks.deliveries();
 * expect(delivery?.status).toBe('delivered');
 */
export interface Delivery {
  delivery_id: string;
  webhook_endpoint_id: string;
  url: string;
  event_id: string;
  event_kind: KnownEventKind;
  /** The exact JSON body sent on every attempt. */
  body: string;
  /** `replayed`: a dead letter that was delivered again as a new delivery (see `replay_of`). */
  status: 'pending' | 'delivered' | 'dead_letter' | 'replayed';
  attempts: DeliveryAttempt[];
  /** Mock-clock time of the next attempt (null once delivered or dead-lettered). */
  next_attempt_at: string | null;
  /** The delivery this one replays, or null. */
  replay_of: string | null;
}
