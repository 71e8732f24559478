/**
 * The promise every resource method returns: awaited, it gives the data; `.withResponse()` also
 * gives what a support ticket or a log line needs from a *successful* call (its request id, status
 * and headers).
 */
import { safeHeaders } from '../../internal/redact.js';
import type { ResponseMeta } from '../types.js';

/**
 * A successful call's data with what came with it.
 *
 * @example
 * const { data: order, requestId, status } = await client.orders.get(orderId).withResponse();
 * log.info(`read order ${order.order_id}: ${status}, request_id ${requestId}`);
 */
export interface APIResponse<T> {
  /** What awaiting the call gives. */
  data: T;
  /** The service's request id (the body's `request_id`, else the `X-Request-Id` header). */
  requestId: string | undefined;
  /** The HTTP status of the response that succeeded. */
  status: number;
  /** Its headers, names lower-case, credential-bearing values redacted. */
  headers: Record<string, string>;
}

/** A fresh, empty {@link ResponseMeta} for the core to fill. */
export function responseMeta(): ResponseMeta {
  return { status: 0, requestId: undefined, headers: EMPTY, redactHeaders: undefined };
}

const EMPTY: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * A `Promise<T>` of a call's data (a native `Promise`: `await`, `Promise.all` and `.then` behave
 * and cost as usual) with `.withResponse()` for the request id, status and headers. The call starts
 * when the method is called, whether or not anything awaits it.
 *
 * @example
 * const order = await client.orders.get(orderId);                     // the data, as always
 * const { data, requestId } = await client.orders.get(orderId).withResponse();
 * support.note(`order ${data.order_id} read, request_id ${requestId}`);
 */
export interface APIPromise<T> extends Promise<T> {
  /**
   * The data with the request id, status and headers of the response that succeeded. A failed call
   * rejects with the same error as awaiting it would (the error has its own `requestId`).
   *
   * @example
   * const { data: payment, requestId } = await client.payments.create(orderId, params).withResponse();
   */
  withResponse(): Promise<APIResponse<T>>;
}

// Where an APIPromise keeps its meta, for the SDK's own layers (the intent runner) to read unredacted.
const META = Symbol('partner-payments.meta');

/** The response meta of an APIPromise made by {@link APIPromise.from} (empty for any other promise). */
export function metaOf(promise: Promise<unknown>): ResponseMeta {
  return (promise as { [META]?: ResponseMeta })[META] ?? responseMeta();
}

/**
 * Makes and recognises {@link APIPromise}s. Resources return what the client gives them; these
 * helpers are for the client itself and for test doubles.
 *
 * @example
 * const page = APIPromise.from(Promise.resolve({ items: [], total: 0, limit: 50, offset: 0 }), responseMeta());
 * APIPromise.is(page); // true
 */
export const APIPromise = {
  /** `data` itself, given `.withResponse()` reading `meta` (no wrapper promise: the hot path). */
  from<T>(data: Promise<T>, meta: ResponseMeta): APIPromise<T> {
    const promise = data as APIPromise<T> & { [META]?: ResponseMeta };
    promise[META] = meta;
    promise.withResponse = () =>
      data.then((value) => ({
        data: value,
        requestId: meta.requestId,
        status: meta.status,
        headers: (meta.redactHeaders ?? safeHeaders)(meta.headers),
      }));
    return promise;
  },

  /** An APIPromise that rejects with `error` (a check that failed before anything was sent). */
  rejected<T>(error: unknown): APIPromise<T> {
    return APIPromise.from<T>(Promise.reject(error), responseMeta());
  },

  /**
   * Runs `start` and returns its APIPromise; a synchronous throw (an invalid argument) becomes a
   * rejection, as it would in an `async` method.
   */
  run<T>(start: () => APIPromise<T>): APIPromise<T> {
    try {
      return start();
    } catch (error) {
      return APIPromise.rejected(error);
    }
  },

  /** Whether `value` is an APIPromise. */
  is(value: unknown): value is APIPromise<unknown> {
    return (
      value instanceof Promise && typeof (value as { withResponse?: unknown }).withResponse === 'function'
    );
  },
};
