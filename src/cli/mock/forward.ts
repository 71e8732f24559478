// The bin's `--forward-to`: registers a webhook endpoint for a loopback URL on the mock, keeps it
// across resets, and prints one line per delivery attempt.
import { pinWebhookEndpoint } from '../../testing/control/pins.js';
import type { Delivery, MockService } from '../../testing/index.js';

/** One line about a delivery attempt, for people watching the bin's output. */
export function attemptLine(d: Delivery, index: number, nowMs: number): string {
  const attempt = d.attempts[index]!;
  const answer =
    attempt.status === null ? `no answer from ${d.url} (${why(attempt.error)})` : `HTTP ${attempt.status}`;
  const head = `webhook ${d.event_kind} ${d.event_id} attempt ${index + 1}/6: ${answer}`;
  if (attempt.ok) return `${head}, delivered`;
  const last = index === d.attempts.length - 1;
  if (last && d.status === 'dead_letter') return `${head}, dead letter (replay it from the dashboard)`;
  if (last && d.next_attempt_at !== null) {
    const minutes = Math.max(0, Math.round((Date.parse(d.next_attempt_at) - nowMs) / 60_000));
    return `${head}, next attempt in ${minutes} min`;
  }
  return head;
}

/** A failed attempt's error, said so that the set-up mistake behind it shows. */
function why(error: string | undefined): string {
  if (error === 'ECONNREFUSED')
    return 'ECONNREFUSED: connection refused, is your receiver listening on that port?';
  if (error === 'TimeoutError') return 'TimeoutError: the receiver did not answer in time';
  return error ?? 'error';
}

/**
 * Registers a webhook endpoint for `url` (http is fine on loopback) for the partner, keeps it across
 * control-API resets, and calls `print` once per delivery attempt. Returns the endpoint's signing
 * secret (for the bin to print once) and a stop function.
 */
export function forwardWebhooks(
  mock: MockService,
  partnerId: string,
  url: string,
  print: (line: string) => void,
): { endpointId: string; signingSecret: string; stop(): void } {
  const endpoint = mock.webhooks.register({ partnerId, url });
  pinWebhookEndpoint(mock, endpoint.webhook_endpoint_id);
  const seen = new Map<string, number>();
  // Watching the delivery log (rather than hooking the deliverer) keeps this a pure observer.
  const watch = () => {
    for (const d of mock.webhooks.deliveries()) {
      if (d.webhook_endpoint_id !== endpoint.webhook_endpoint_id) continue;
      const done = seen.get(d.delivery_id) ?? 0;
      for (let i = done; i < d.attempts.length; i++) print(attemptLine(d, i, mock.clock.now()));
      seen.set(d.delivery_id, d.attempts.length);
    }
  };
  const timer = setInterval(watch, 100);
  timer.unref();
  return {
    endpointId: endpoint.webhook_endpoint_id,
    signingSecret: endpoint.signing_secret,
    stop: () => {
      clearInterval(timer);
      watch();
    },
  };
}
