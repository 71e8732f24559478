// The floor of the intents figures: the least a client must do to remember its idempotency keys in
// memory around a create call, on the SDK's own call path but without its intent layer.
import type { IntentCall, Requester } from '../src/core/call/types.js';
import type { APIPromise, PaymentsClient } from '../src/index.js';

/**
 * An `exactlyOnce` hook (the one the client's intent runner fills) that only remembers: the call's
 * key (a new UUID when none is given) in a bare `Map` of at most `cap` entries, like the default
 * intent store's cap, the oldest tenth dropped at the cap; the result kept with its key, set by the
 * core inside the call as the runner's is (no promise of its own around the send). No fingerprint,
 * lease, index of orders or record: what any in-memory exactly-once layer must at least pay.
 */
export function keyMemoryFloor(cap = 10_000): <T>(call: IntentCall<T>) => APIPromise<T> {
  const remembered = new Map<string, { result: unknown; at: number }>();
  return (call) => {
    const key = call.options?.idempotencyKey ?? crypto.randomUUID();
    if (remembered.size >= cap) {
      let drop = Math.ceil(cap / 10);
      for (const old of remembered.keys()) {
        if (drop-- <= 0) break;
        remembered.delete(old);
      }
    }
    const kept = { result: undefined as unknown, at: Date.now() };
    remembered.set(key, kept);
    return call.send({}, JSON.stringify(call.params), {
      landed: (data) => {
        kept.result = data;
      },
      recover: (error) => Promise.reject(error),
    });
  };
}

/**
 * `client.payments` over a requester of the client's own core: with no `exactlyOnce`, the resource
 * as 0.2.0 ran it (validate, one POST, parse); with one, that layer instead of the SDK's.
 */
export function paymentsOver(
  client: PaymentsClient,
  exactlyOnce?: Requester['exactlyOnce'],
): PaymentsClient['payments'] {
  const requester: Requester = { request: (spec) => client.request(spec) };
  if (exactlyOnce) requester.exactlyOnce = exactlyOnce;
  const Payments = client.payments.constructor as new (r: Requester) => PaymentsClient['payments'];
  return new Payments(requester);
}
