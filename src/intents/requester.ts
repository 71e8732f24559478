// The requester the client hands its resources: the intent layer wrapped around the core. A payment
// or refund creation (a spec with an intent) runs through the intent runner, which sends down
// through the core; an order created under a caller's key is noted in the intent store (for
// `handler.catchUp()`, api.md 23); every other call goes straight to the core. Nothing of it runs
// inside the core.
import type { z } from 'zod';
import { APIPromise, metaOf } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import type { RequestSpec } from '../core/types.js';
import type { IntentCall } from './intent.js';
import type { IntentRunner } from './runner.js';

/**
 * An order creation under a caller's key (`orders.create` with one, and so `client.charge`), as the
 * orders resource marks it: the requester notes the order in the intent store once it exists.
 */
export type NotedOrderSpec<S extends z.ZodType = z.ZodType> = RequestSpec<S> & { noteOrder: true };

/** The core with exactly-once payments and refunds around it. */
export class KeyedRequester implements Requester {
  constructor(
    private readonly core: Requester,
    /** The client's intent runner: a derived client shares its store. */
    readonly intents: IntentRunner,
  ) {}

  request<S extends z.ZodType>(spec: RequestSpec<S>): APIPromise<z.infer<S>> {
    if ((spec as Partial<IntentCall>).intent !== undefined)
      return this.intents.once(spec as RequestSpec as IntentCall);
    const store = this.intents.store;
    if ((spec as Partial<NotedOrderSpec>).noteOrder !== true || store.noteOrder === undefined)
      return this.core.request(spec);
    // An order made under a key: noted once it exists. A failed note fails the call: a rerun of the
    // key gets the same order and notes it.
    const sent = this.core.request(spec);
    // Its time is this machine's, as an intent's: what catchUp's window counts in.
    const noted = sent.then(async (order) => {
      await store.noteOrder?.({ orderId: (order as { order_id: string }).order_id, createdAt: Date.now() });
      return order;
    });
    return APIPromise.from(noted, metaOf(sent));
  }
}
