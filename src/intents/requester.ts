// The requester the client hands its resources: the intent layer wrapped around the core. A payment
// or refund creation (a spec with an intent) runs through the intent runner, which sends down
// through the core; every other call goes straight to the core. Nothing of it runs inside the core.
import type { z } from 'zod';
import type { APIPromise } from '../core/call/api-promise.js';
import type { Requester } from '../core/call/requester.js';
import type { RequestSpec } from '../core/types.js';
import type { IntentCall } from './intent.js';
import type { IntentRunner } from './runner.js';

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
    return this.core.request(spec);
  }
}
