import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createDeduplicator,
  DEFAULT_DEDUPE_TTL_MS,
  type DedupeStore,
  MemoryDedupeStore,
  PaymentsError,
} from '../../src/webhooks/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-05-12T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createDeduplicator', () => {
  it('claims an event id once; a redelivery is reported as a duplicate', async () => {
    const dedupe = createDeduplicator();
    expect(await dedupe.claim('evt_1')).toBe(true);
    expect(await dedupe.claim('evt_1')).toBe(false);
    expect(await dedupe.claim('evt_2')).toBe(true);
  });

  it('remembers an id past the whole retry schedule (14 h 36 min) by default, and forgets it after 24 h', async () => {
    expect(DEFAULT_DEDUPE_TTL_MS).toBe(24 * 3600_000);
    const dedupe = createDeduplicator();
    await dedupe.claim('evt_1');
    vi.advanceTimersByTime((1 + 5 + 30 + 120 + 720) * 60_000);
    expect(await dedupe.claim('evt_1')).toBe(false);
    vi.advanceTimersByTime(DEFAULT_DEDUPE_TTL_MS);
    expect(await dedupe.claim('evt_1')).toBe(true);
  });

  it('runOnce runs the handler for the first delivery only and returns its result', async () => {
    const dedupe = createDeduplicator();
    const handler = vi.fn(async () => 'done');
    expect(await dedupe.runOnce('evt_1', handler)).toEqual({ duplicate: false, result: 'done' });
    expect(await dedupe.runOnce('evt_1', handler)).toEqual({ duplicate: true });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('runOnce releases the claim when the handler fails, so the retry is processed', async () => {
    const dedupe = createDeduplicator();
    const boom = new Error('database down');
    await expect(dedupe.runOnce('evt_1', () => Promise.reject(boom))).rejects.toBe(boom);
    const retry = vi.fn(() => 'ok');
    expect(await dedupe.runOnce('evt_1', retry)).toEqual({ duplicate: false, result: 'ok' });
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('lets exactly one of many concurrent deliveries of the same event through', async () => {
    const dedupe = createDeduplicator();
    const handler = vi.fn(async () => undefined);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => dedupe.runOnce('evt_1', handler)));
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('uses a custom store through its atomic add, with the configured ttl', async () => {
    const seen = new Set<string>();
    const store: DedupeStore = {
      add: vi.fn(async (id: string) => !seen.has(id) && Boolean(seen.add(id))),
      delete: vi.fn(async (id: string) => void seen.delete(id)),
    };
    const dedupe = createDeduplicator({ store, ttlMs: 60_000 });
    expect(await dedupe.claim('evt_1')).toBe(true);
    expect(await dedupe.claim('evt_1')).toBe(false);
    expect(store.add).toHaveBeenCalledWith('evt_1', 60_000);
    await dedupe.release('evt_1');
    expect(store.delete).toHaveBeenCalledWith('evt_1');
    expect(await dedupe.claim('evt_1')).toBe(true);
  });

  const badOptions: [string, () => unknown][] = [
    ['a ttl of 0', () => createDeduplicator({ ttlMs: 0 })],
    ['a negative ttl', () => createDeduplicator({ ttlMs: -1 })],
    ['an infinite ttl', () => createDeduplicator({ ttlMs: Number.POSITIVE_INFINITY })],
    ['maxEntries of 0', () => new MemoryDedupeStore({ maxEntries: 0 })],
    ['fractional maxEntries', () => new MemoryDedupeStore({ maxEntries: 1.5 })],
  ];
  it.each(badOptions)('refuses %s with a PaymentsError', (_n, make) => {
    expect(make).toThrow(PaymentsError);
  });

  it('refuses an empty or missing event id', async () => {
    const dedupe = createDeduplicator();
    await expect(dedupe.claim('')).rejects.toThrow(/event id/);
    await expect(dedupe.claim(undefined as unknown as string)).rejects.toBeInstanceOf(PaymentsError);
  });
});

describe('MemoryDedupeStore', () => {
  it('stays bounded, dropping the least recently seen id first', () => {
    const store = new MemoryDedupeStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c']) expect(store.add(id, 60_000)).toBe(true);
    expect(store.add('a', 60_000)).toBe(false); // seen again: now the most recent
    expect(store.add('d', 60_000)).toBe(true); // drops b, the least recently seen
    expect(store.size).toBe(3);
    expect(store.add('a', 60_000)).toBe(false);
    expect(store.add('c', 60_000)).toBe(false);
    expect(store.add('b', 60_000)).toBe(true);
  });

  it('expires ids after their ttl and sweeps expired ones as new ids arrive', () => {
    const store = new MemoryDedupeStore();
    store.add('a', 1_000);
    store.add('b', 5_000);
    vi.advanceTimersByTime(1_000);
    expect(store.add('a', 1_000)).toBe(true);
    vi.advanceTimersByTime(5_000);
    store.add('c', 1_000);
    expect(store.size).toBe(1);
  });

  it('keeps the first expiry when an id is seen again (a redelivery does not extend it)', () => {
    const store = new MemoryDedupeStore();
    store.add('a', 1_000);
    vi.advanceTimersByTime(900);
    expect(store.add('a', 1_000)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(store.add('a', 1_000)).toBe(true);
  });
});
