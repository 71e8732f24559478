// The floor of the intents figures: the least a client must do to remember its idempotency keys in
// memory around a create call, on the SDK's own call path but without its intent layer.
import { metaOf } from '../src/core/call/api-promise.js';
import type { Requester } from '../src/core/call/requester.js';
import { APIPromise, type PaymentsClient, type RequestSpec } from '../src/index.js';

/** A spec as a resource builds it for a payment or refund creation: with its intent. */
type Keyed = RequestSpec & { intent?: unknown };

/** An intent layer over the core's send: what the client's requester hands a spec with an intent to. */
export type KeyLayer = (spec: Keyed, send: (spec: RequestSpec) => APIPromise<unknown>) => APIPromise<unknown>;

/**
 * An intent layer in place of the client's intent runner that only remembers: the call's key (a
 * new UUID when none is given) in a bare `Map` of at most `cap` entries, like the default intent
 * store's cap, the oldest tenth dropped at the cap; the result kept with its key when the send
 * resolves, before the call's promise does, as the runner's is. No fingerprint,
 * lease, index of orders or record: what any in-memory exactly-once layer must at least pay.
 */
export function keyMemoryFloor(cap = 10_000): KeyLayer {
  const remembered = new Map<string, { result: unknown; at: number }>();
  return (spec, send) => {
    const key = spec.options?.idempotencyKey ?? crypto.randomUUID();
    if (remembered.size >= cap) {
      let drop = Math.ceil(cap / 10);
      for (const old of remembered.keys()) {
        if (drop-- <= 0) break;
        remembered.delete(old);
      }
    }
    const kept = { result: undefined as unknown, at: Date.now() };
    remembered.set(key, kept);
    // The runner sends a copy of the spec, as this does: without its intent, under its own options.
    const sent: Keyed = Object.assign({}, spec);
    sent.intent = undefined;
    sent.options = {};
    sent.json = JSON.stringify(spec.body);
    const sending = send(sent);
    const landed = sending.then((data) => {
      kept.result = data;
      return data;
    });
    return APIPromise.from(landed, metaOf(sending));
  };
}

/**
 * `client.payments` over a requester of the client's own core: with no `layer`, the resource as
 * 0.2.0 ran it (validate, one POST, parse); with one, that layer instead of the SDK's intent runner.
 */
export function paymentsOver(client: PaymentsClient, layer?: KeyLayer): PaymentsClient['payments'] {
  const send = (spec: RequestSpec) => client.request(spec);
  const requester = {
    request: (spec: Keyed) => {
      if (spec.intent !== undefined && layer) return layer(spec, send);
      // The resource's own spec, built for this call: the plain call sends it without its intent.
      spec.intent = undefined;
      return client.request(spec);
    },
  } as Requester;
  const Payments = client.payments.constructor as new (r: Requester) => PaymentsClient['payments'];
  return new Payments(requester);
}
