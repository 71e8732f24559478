// The webhook de-duplication store on one machine's disk (`fileStores(...).dedupeStore`): per event
// id a folder of numbered versions (disk.ts), each holding when the claim expires; claiming is
// writing the next version, which one process only can do.
import type { DedupeStore } from '../../core/stores/dedupe-store.js';
import { type Disk, digest } from './disk.js';

/** One version of an event id's claim; `expiresAt` 0 once deleted (processing failed). */
interface Claim {
  expiresAt: number;
}

export interface FileDedupeStore extends DedupeStore {
  readonly durable: true;
  add(id: string, ttlMs: number): Promise<boolean>;
  delete(id: string): Promise<void>;
  /** Whether `id` is held and not expired (a read: writes nothing). */
  has(id: string): Promise<boolean>;
  /** Deletes the claims expired more than `graceMs` ago. */
  prune(now: number, graceMs: number): Promise<void>;
}

export function fileDedupeStore(disk: () => Promise<Disk>, wrote: () => void): FileDedupeStore {
  const cellOf = async (d: Disk, id: string) => d.path('events', await digest(id));
  /** Writes the claim's next version unless `keep` says the current one stands; whether it wrote. */
  const claim = async (id: string, next: Claim, keep: (current: Claim | undefined) => boolean) => {
    const d = await disk();
    const cell = await cellOf(d, id);
    for (;;) {
      const current = await d.latest<Claim>(cell);
      if (keep(current?.value)) return false;
      if (await d.commit(cell, d.path('events'), (current?.n ?? 0) + 1, next)) {
        wrote();
        return true;
      }
    }
  };
  return {
    durable: true,
    async add(id, ttlMs) {
      const now = Date.now();
      return claim(id, { expiresAt: now + Math.max(1, ttlMs) }, (c) => c !== undefined && c.expiresAt > now);
    },
    async delete(id) {
      await claim(id, { expiresAt: 0 }, (c) => c === undefined || c.expiresAt <= Date.now());
    },
    async has(id) {
      const d = await disk();
      const current = await d.latest<Claim>(await cellOf(d, id));
      return current !== undefined && current.value.expiresAt > Date.now();
    },
    async prune(now, graceMs) {
      const d = await disk();
      for (const name of await d.list(d.path('events'))) {
        const cell = d.path('events', name);
        const current = await d.latest<Claim>(cell);
        // Long expired: a claim that read it before it expired would have to have stalled `graceMs`.
        if (current && current.value.expiresAt <= now - graceMs) await d.discard(cell);
      }
    },
  };
}
