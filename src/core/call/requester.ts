// The one contract between resources and the client: a resource describes a call, the requester
// sends it (with auth, retries, and the intent layer for a spec that carries an intent).
import type { z } from 'zod';
import type { RequestSpec } from '../types.js';
import type { APIPromise } from './api-promise.js';

/**
 * What resources need from the client: one method. Resources never see transport, retries, tokens
 * or the intent store.
 *
 * @example
 * const requester: Requester = client; // a PaymentsClient is one; so is a test double
 * const order = await requester.request({ method: 'GET', path: `/pos/v1/orders/${orderId}`, retry: 'safe', response: z.looseObject({}) });
 */
export interface Requester {
  /**
   * Sends one call described by `spec` and returns its parsed response; a spec with an `intent`
   * runs exactly once per idempotency key (the client's intent store and reconciliation).
   */
  request<S extends z.ZodType>(spec: RequestSpec<S>): APIPromise<z.infer<S>>;
}
