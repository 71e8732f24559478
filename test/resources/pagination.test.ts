import { describe, expect, it } from 'vitest';
import { APIPromise, responseMeta } from '../../src/core/call/api-promise.js';
import { type Page, PagePromise } from '../../src/index.js';

// A page fetcher as the client's core gives it: an APIPromise.
const api =
  <T>(fetch: (offset: number) => Promise<Page<T>>) =>
  (offset: number) =>
    APIPromise.from(fetch(offset), responseMeta());

function pager(total: number, limit: number) {
  const offsets: number[] = [];
  const list = (start = 0) =>
    new PagePromise<number>(
      api(async (offset): Promise<Page<number>> => {
        offsets.push(offset);
        const items = Array.from(
          { length: Math.max(0, Math.min(limit, total - offset)) },
          (_, i) => offset + i,
        );
        return { items, total, limit, offset };
      }),
      start,
    );
  return { list, offsets };
}

describe('PagePromise', () => {
  it('awaits to the first page only', async () => {
    const { list, offsets } = pager(450, 200);
    const page = await list();
    expect(page).toMatchObject({ total: 450, limit: 200, offset: 0 });
    expect(page.items).toHaveLength(200);
    expect(offsets).toEqual([0]);
  });

  it('iterates every item of every page once, in order, fetching each page once', async () => {
    const { list, offsets } = pager(450, 200);
    const seen: number[] = [];
    for await (const n of list()) seen.push(n);
    expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => i));
    expect(offsets).toEqual([0, 200, 400]);
  });

  it('fetches nothing more after a break', async () => {
    const { list, offsets } = pager(450, 200);
    for await (const n of list()) {
      expect(n).toBe(0);
      break;
    }
    expect(offsets).toEqual([0]);
  });

  it('iterates pages, starting at the given offset', async () => {
    const { list, offsets } = pager(450, 200);
    const sizes: number[] = [];
    for await (const page of list(100).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual([200, 150]);
    expect(offsets).toEqual([100, 300]);
  });

  it('stops on an empty page even if total says more', async () => {
    let calls = 0;
    const list = new PagePromise<number>(
      api(async (offset) => {
        calls++;
        return { items: [], total: 10, limit: 5, offset };
      }),
      0,
    );
    const seen: number[] = [];
    for await (const n of list) seen.push(n);
    expect(seen).toEqual([]);
    expect(calls).toBe(1);
  });
});
