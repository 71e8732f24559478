// Pagination of list endpoints: the Page shape and PagePromise, a promise of the first page that
// also iterates lazily over every page or every item.
import { APIPromise, type APIResponse } from './api-promise.js';

/**
 * One page of a list endpoint.
 *
 * @example
 * const page: Page<LocationSummary> = await client.locations.list({ limit: 50, offset: 100 });
 * const more = page.offset + page.items.length < page.total;
 */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * The result of a list call: a promise of the first page that is also an async iterable over every
 * item of every page, fetched lazily (a `break` fetches nothing more).
 *
 * @example
 * const first = await client.locations.list({ limit: 50 });      // one page
 * for await (const loc of client.locations.list({ limit: 200 })) { ... } // every item
 * for await (const page of client.locations.list().pages()) { ... }     // page by page
 * const { data: page, requestId } = await client.locations.list().withResponse(); // the first page's request id
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #first: APIPromise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: (offset: number) => APIPromise<Page<T>>,
    private readonly startOffset: number,
  ) {}

  /** A PagePromise that rejects with `error` when awaited or iterated. */
  static reject<T>(error: unknown): PagePromise<T> {
    return new PagePromise<T>(() => APIPromise.rejected(error), 0);
  }

  // Started on first use, so that `for await` over a PagePromise does not fetch the first page twice.
  private first(): APIPromise<Page<T>> {
    this.#first ??= this.fetchPage(this.startOffset);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaited like a promise on purpose.
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.first().then(onFulfilled, onRejected);
  }

  /** The first page's failure, as on a promise. */
  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T> | R> {
    return this.first().catch(onRejected);
  }

  /**
   * The first page with its request id, status and headers (as `APIPromise.withResponse()`).
   *
   * @example
   * const { data: page, requestId } = await client.locations.list({ limit: 50 }).withResponse();
   */
  withResponse(): Promise<APIResponse<Page<T>>> {
    return this.first().withResponse();
  }

  /** Every page, from the first, fetched one at a time as you iterate. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.first();
    for (;;) {
      yield page;
      const next = page.offset + page.items.length;
      if (page.items.length === 0 || next >= page.total) return;
      page = await this.fetchPage(next);
    }
  }

  /** Every item of every page: `for await (const location of client.locations.list())`. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.items;
  }
}
