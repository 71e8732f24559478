// The intent store on one machine's disk (`fileStores(...).intentStore`). Each order's intents are
// one record (its "ledger": every key of the order with its lease), kept as numbered versions in
// the order's folder; each key has a pointer file naming its order. Why this layout, and what each
// step syncs, is in docs/fleets.md ("Stores on one machine's disk").
import { PaymentsError } from '../../core/errors/base-error.js';
import type {
  IntentBegin,
  IntentRecord,
  IntentStore,
  MadeResource,
  OrderNote,
  RefundSighting,
} from '../../core/stores/intent-store.js';
import { madeOf } from '../../core/stores/intent-store.js';
import { type Disk, digest } from './disk.js';

/** One key in its order's ledger: its record and its lease (`owner` null when released). */
interface Held {
  record: IntentRecord;
  owner: string | null;
  until: number;
}

/** An order's intents, one version of it. `sealedAt`: emptied by a prune, the keys forgotten. */
interface Ledger {
  orderId: string;
  keys: Record<string, Held>;
  sealedAt?: number;
}

/** `keys/<sha256(key)>.json`: the order a key belongs to, written once, before anything is sent. */
interface Pointer {
  key: string;
  orderId: string;
}

type Noted = RefundSighting & { notedAt: number };

/** A key's entry, by own property only: a key may be any string, `constructor` or `__proto__` too. */
const heldIn = (ledger: Ledger | undefined, key: string): Held | undefined =>
  ledger && Object.hasOwn(ledger.keys, key) ? ledger.keys[key] : undefined;

const finished = (h: Held) => h.record.state === 'landed' || h.record.state === 'not_landed';

/** How the intent store reaches its disk, and its retention (see index.ts). */
export interface FileIntentConfig {
  disk: () => Promise<Disk>;
  ttlMs: number;
  /** Called after each write: the store prunes now and then. */
  wrote: () => void;
}

export interface FileIntentStore extends IntentStore {
  readonly durable: true;
  /** Forgets finished intents and refund sightings past the retention (see index.ts). */
  prune(now: number, graceMs: number): Promise<void>;
}

export function fileIntentStore({ disk, ttlMs, wrote }: FileIntentConfig): FileIntentStore {
  const pointerOf = async (d: Disk, key: string) => d.path('keys', `${await digest(key)}.json`);
  const ledgerOf = async (d: Disk, orderId: string) => d.path('orders', await digest(orderId));
  const ORDERS = (d: Disk) => d.path('orders');

  /** The key's record in the ledger of its pointer's order. */
  const heldVia = async (d: Disk, pointer: Pointer) =>
    heldIn((await d.latest<Ledger>(await ledgerOf(d, pointer.orderId)))?.value, pointer.key);

  /** The records of `ledger`, less those whose pointer names another order (a begin that lost). */
  const owned = async (d: Disk, ledger: Ledger, keep: (h: Held) => boolean) => {
    const held = Object.values(ledger.keys).filter(keep);
    const pointers = await Promise.all(
      held.map(async (h) => d.readJson<Pointer>(await pointerOf(d, h.record.key))),
    );
    return held.filter((_, i) => pointers[i] === undefined || pointers[i]!.orderId === ledger.orderId);
  };

  /** Changes one key of an order's ledger, reading again until its version is the one written. */
  const change = async (
    d: Disk,
    orderId: string,
    edit: (ledger: Ledger | undefined) => Ledger | undefined,
  ): Promise<void> => {
    const cell = await ledgerOf(d, orderId);
    for (;;) {
      const current = await d.latest<Ledger>(cell);
      const next = edit(current?.value);
      if (next === undefined) return;
      if (await d.commit(cell, ORDERS(d), (current?.n ?? 0) + 1, next)) return;
    }
  };

  const store: FileIntentStore = {
    durable: true,

    async begin(draft, owner, leaseMs): Promise<IntentBegin> {
      const d = await disk();
      const pointerPath = await pointerOf(d, draft.key);
      const pointer = await d.readJson<Pointer>(pointerPath);
      if (pointer && pointer.orderId !== draft.orderId) return conflictWith(d, pointer);
      const cell = await ledgerOf(d, draft.orderId);
      for (;;) {
        const now = Date.now();
        const current = await d.latest<Ledger>(cell);
        const keys = current?.value.keys ?? {};
        const before = heldIn(current?.value, draft.key);
        let record = draft;
        if (before) {
          if (before.record.fingerprint !== draft.fingerprint)
            return { status: 'conflict', record: before.record };
          if (before.record.state === 'landed') return { status: 'done', record: before.record };
          if (before.owner !== null && before.owner !== owner && before.until > now)
            return { status: 'busy', until: before.until };
          record = before.record;
        }
        const ledger: Ledger = {
          orderId: draft.orderId,
          keys: { ...keys, [draft.key]: { record, owner, until: now + leaseMs } },
        };
        // The compare-and-set: of two processes that read this version, one writes the next.
        if (!(await d.commit(cell, ORDERS(d), (current?.n ?? 0) + 1, ledger))) continue;
        wrote();
        if (!pointer && !(await d.createOnce(pointerPath, d.path('keys'), pointerText(draft)))) {
          // Another process began the key at the same moment: on this order, it is this ledger's
          // (the lease just taken counts); on another, the key is that order's and this begin undoes.
          const other = (await d.readJson<Pointer>(pointerPath))!;
          if (other.orderId !== draft.orderId) {
            await change(d, draft.orderId, (l) => {
              if (!l || heldIn(l, draft.key)?.owner !== owner) return undefined;
              const rest = { ...l.keys };
              if (before) rest[draft.key] = before;
              else delete rest[draft.key];
              return { ...l, keys: rest };
            });
            return conflictWith(d, other);
          }
        }
        return { status: 'acquired', record: { ...record } };
      }
    },

    async put(record, owner, release) {
      const d = await disk();
      let result: 'ok' | 'lost' | 'taken' = 'ok';
      await change(d, record.orderId, (ledger) => {
        const held = heldIn(ledger, record.key);
        if (!ledger || !held || held.owner !== owner) {
          result = 'lost';
          return undefined;
        }
        // In the same version as the check: two keys writing one result cannot both see it free.
        if (record.resultId !== undefined)
          for (const [key, other] of Object.entries(ledger.keys))
            if (key !== record.key && other.record.resultId === record.resultId) {
              result = 'taken';
              return undefined;
            }
        result = 'ok';
        const kept: Held = release ? { record, owner: null, until: 0 } : { record, owner, until: held.until };
        return { orderId: ledger.orderId, keys: { ...ledger.keys, [record.key]: kept } };
      });
      if (result === 'ok') wrote();
      return result;
    },

    async renew(intent, owner, leaseMs) {
      const d = await disk();
      let held = false;
      await change(d, intent.orderId, (ledger) => {
        const h = heldIn(ledger, intent.key);
        held = h !== undefined && h.owner === owner;
        if (!ledger || !h || !held) return undefined;
        const kept: Held = { record: h.record, owner, until: Date.now() + leaseMs };
        return { orderId: ledger.orderId, keys: { ...ledger.keys, [intent.key]: kept } };
      });
      return held;
    },

    async get(key) {
      const d = await disk();
      const pointer = await d.readJson<Pointer>(await pointerOf(d, key));
      return pointer ? (await heldVia(d, pointer))?.record : undefined;
    },

    async forOrder(orderId) {
      const d = await disk();
      const ledger = (await d.latest<Ledger>(await ledgerOf(d, orderId)))?.value;
      return ledger ? (await owned(d, ledger, () => true)).map((h) => h.record) : [];
    },

    async unfinished(olderThanMs) {
      const d = await disk();
      const now = Date.now();
      const found: IntentRecord[] = [];
      for (const name of await d.list(d.path('orders'))) {
        const ledger = (await d.latest<Ledger>(d.path('orders', name)))?.value;
        if (!ledger) continue;
        const open = await owned(
          d,
          ledger,
          (h) =>
            (h.record.state === 'open' || h.record.state === 'unknown') &&
            (h.owner === null || h.until <= now) &&
            h.record.updatedAt <= now - olderThanMs,
        );
        for (const h of open) found.push(h.record);
      }
      return found;
    },

    async noteRefund(sighting) {
      const d = await disk();
      const folder = d.path('refunds', await digest(sighting.paymentId));
      const path = `${folder}/${await digest(sighting.refundId)}.json`;
      const noted: Noted = { ...sighting, notedAt: Date.now() };
      for (;;) {
        await d.folder(folder, d.path('refunds'));
        try {
          await d.replace(path, folder, JSON.stringify(noted));
          break;
        } catch (error) {
          // The folder was pruned in between: make it again.
          if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
        }
      }
      wrote();
    },

    async refundsOf(paymentId) {
      const d = await disk();
      const folder = d.path('refunds', await digest(paymentId));
      const seen = await Promise.all(
        (await d.list(folder)).map((name) => d.readJson<Noted>(`${folder}/${name}`)),
      );
      return seen.flatMap((s) => (s ? [withoutNotedAt(s)] : []));
    },

    async noteOrder(order) {
      const d = await disk();
      const path = d.path('made', `${await digest(order.orderId)}.json`);
      const text = JSON.stringify({ orderId: order.orderId, createdAt: order.createdAt } satisfies OrderNote);
      // Once per order: a note already there stands.
      await d.createOnce(path, d.path('made'), text);
      wrote();
    },

    async made({ from, to }) {
      const d = await disk();
      const found: MadeResource[] = [];
      for (const name of await d.list(d.path('made'))) {
        const note = await d.readJson<OrderNote>(d.path('made', name));
        if (note && note.createdAt >= from && note.createdAt <= to)
          found.push({ kind: 'order', orderId: note.orderId, createdAt: note.createdAt });
      }
      for (const name of await d.list(d.path('orders'))) {
        const ledger = (await d.latest<Ledger>(d.path('orders', name)))?.value;
        if (!ledger) continue;
        const landed = await owned(d, ledger, (h) => {
          const at = h.record.createdAt;
          return h.record.state === 'landed' && at >= from && at <= to;
        });
        for (const h of landed) {
          const m = madeOf(h.record);
          if (m) found.push(m);
        }
      }
      return found;
    },

    async prune(now, graceMs) {
      const d = await disk();
      const old = now - ttlMs;
      for (const name of await d.list(d.path('made'))) {
        const note = await d.readJson<OrderNote>(d.path('made', name));
        if (note && note.createdAt <= old) await d.fs.unlink(d.path('made', name)).catch(() => undefined);
      }
      for (const name of await d.list(d.path('orders'))) {
        const cell = d.path('orders', name);
        const current = await d.latest<Ledger>(cell);
        if (!current) continue;
        const ledger = current.value;
        const held = Object.values(ledger.keys);
        if (held.length === 0) {
          // Sealed (or emptied) long ago and untouched since: the folder goes. A writer would have to
          // have read a version from before the seal and stalled `graceMs` to write after it.
          if ((ledger.sealedAt ?? 0) <= now - graceMs) await d.discard(cell);
          continue;
        }
        const expired = held.every(
          (h) => finished(h) && (h.owner === null || h.until <= now) && h.record.updatedAt <= old,
        );
        if (!expired) continue;
        // The pointers first: a key without one is forgotten (get() says undefined), which is what
        // its expiry means; then the seal, a version like any other, so a write that came in since
        // the read makes it fail and nothing of that write is lost (the pointers come back).
        const pointers = await Promise.all(held.map(async (h) => pointerOf(d, h.record.key)));
        await Promise.all(pointers.map((p) => d.fs.unlink(p).catch(() => undefined)));
        const sealed = await d.commit(cell, d.path('orders'), current.n + 1, {
          orderId: ledger.orderId,
          keys: {},
          sealedAt: now,
        } satisfies Ledger);
        if (!sealed)
          await Promise.all(
            held.map((h, i) => d.createOnce(pointers[i]!, d.path('keys'), pointerText(h.record))),
          );
        else await d.syncFolder(d.path('keys'));
      }
      for (const name of await d.list(d.path('refunds'))) {
        const folder = d.path('refunds', name);
        for (const file of await d.list(folder)) {
          const noted = await d.readJson<Noted>(`${folder}/${file}`);
          if (noted && noted.notedAt <= old) await d.fs.unlink(`${folder}/${file}`).catch(() => undefined);
        }
        // Fails while a sighting is in it (one noted meanwhile included): then it stays.
        await d.fs.rmdir(folder).catch(() => undefined);
      }
    },
  };
  return store;
}

const pointerText = (record: IntentRecord) =>
  JSON.stringify({ key: record.key, orderId: record.orderId } satisfies Pointer);

const withoutNotedAt = ({ notedAt: _, ...sighting }: Noted): RefundSighting => sighting;

/** The key is another order's: a conflict carrying that order's record of it. */
async function conflictWith(d: Disk, pointer: Pointer): Promise<IntentBegin> {
  const cell = d.path('orders', await digest(pointer.orderId));
  const held = heldIn((await d.latest<Ledger>(cell))?.value, pointer.key);
  // A pointer is written after its ledger entry, and removed before it: this is a damaged directory.
  if (!held)
    throw new PaymentsError(
      `The file intent store names order ${pointer.orderId} for an idempotency key that order does not hold; the store directory was changed by hand or damaged.`,
    );
  return { status: 'conflict', record: held.record };
}
