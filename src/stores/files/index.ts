// `fileStores()`: the intent store and the webhook de-duplication store on one machine's disk, for a
// server without Redis or Postgres that must still charge once per key across restarts (api.md 22).
// node:fs is loaded on first use, never at import, so that the stores entry loads on any runtime.
import { ConfigurationError } from '../../core/errors/api-errors.js';
import { runtimeName } from '../../core/transport/runtime.js';
import { type FileDedupeStore, fileDedupeStore } from './dedupe.js';
import { codeOf, Disk, type FileStoreFs, FOLDERS } from './disk.js';
import { type FileIntentStore, fileIntentStore } from './intents.js';

export type { FileDedupeStore } from './dedupe.js';
export type { FileStoreFs, FileStoreHandle } from './disk.js';
export type { FileIntentStore } from './intents.js';

/**
 * Options of {@link fileStores}.
 *
 * @example
 * const stores = fileStores('/var/lib/shop/payments', { ttlMs: 7 * 24 * 3_600_000 });
 */
export interface FileStoresOptions {
  /**
   * How long a finished intent (landed or not landed) and a refund seen in an event are kept after
   * their last write: the same key after that is a new payment. Keep it at least the service's
   * 24-hour order window. @default 86400000 (24 hours)
   */
  ttlMs?: number;
  /** The file system calls (tests, instrumentation). @default node:fs/promises */
  fs?: FileStoreFs;
}

/**
 * What {@link fileStores} returns.
 *
 * @example
 * const { intentStore, dedupeStore }: FileStores = fileStores('/var/lib/shop/payments');
 */
export interface FileStores {
  /**
   * For the client's `intentStore` option: payment and refund intents per idempotency key, on disk
   * (each written and synced before its request is sent), shared by the processes of this machine
   * that use the same directory.
   */
  intentStore: FileIntentStore;
  /** For webhook de-duplication (`createDeduplicator({ store })`), shared the same way. */
  dedupeStore: FileDedupeStore;
  /**
   * Deletes what is past its retention now. It also runs by itself, in the background, after an
   * hour or a thousand writes of this process, whichever comes first.
   */
  prune(): Promise<void>;
}

/** How long something past its retention stays before its files go (see disk.ts and the docs). */
const GRACE_MS = 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_EVERY_WRITES = 1_000;
/** In a variable: a bundler for a runtime without node:fs must not try to resolve it. */
const FS_MODULE = 'node:fs/promises';

const RUNTIMES_WITH_FILES = /^(node|bun|deno)\//;

/**
 * Durable stores on this machine's disk: an intent store and a webhook de-duplication store, under
 * `directory` (created when missing). An intent is written and synced before the payment or refund
 * it guards is sent, so a process killed at any point loses none; several processes of the machine
 * may share the directory, and a key is still sent once across them. Node.js 20+, Bun and Deno; on
 * a runtime without a file system (Cloudflare Workers, a browser) it throws a `ConfigurationError`.
 * Not for a directory on a network file system (NFS, SMB): the stores rely on local `link` and
 * `fsync` semantics. See docs/fleets.md.
 *
 * @example
 * import { PaymentsClient } from 'partner-payments';
 * import { fileStores } from 'partner-payments/stores';
 *
 * const { intentStore } = fileStores('/var/lib/shop/payments');
 * const client = new PaymentsClient({ intentStore });
 */
export function fileStores(directory: string, options: FileStoresOptions = {}): FileStores {
  if (typeof directory !== 'string' || directory === '')
    throw new ConfigurationError('directory', 'fileStores needs the path of a directory.');
  const runtime = runtimeName();
  if (!options.fs && !RUNTIMES_WITH_FILES.test(runtime))
    throw new ConfigurationError(
      'fileStores',
      `needs a file system that survives a restart (Node.js, Bun or Deno); this runtime (${runtime}) has none. Use redisStores() or postgresStores() here.`,
    );
  const ttlMs = options.ttlMs ?? 24 * 3_600_000;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new ConfigurationError('ttlMs', 'must be a positive number of milliseconds.');
  const base = directory.length > 1 ? directory.replace(/[/\\]+$/, '') : directory;

  let ready: Promise<Disk> | undefined;
  const disk = (): Promise<Disk> =>
    (ready ??= open(base, options.fs).catch((error: unknown) => {
      ready = undefined; // try again on the next use
      throw error;
    }));

  let lastPrune = Date.now();
  let writes = 0;
  let pruning: Promise<void> | undefined;
  const prune = (): Promise<void> =>
    (pruning ??= (async () => {
      writes = 0;
      lastPrune = Date.now();
      const now = Date.now();
      await intentStore.prune(now, GRACE_MS);
      await dedupeStore.prune(now, GRACE_MS);
      await sweep(await disk(), now);
    })().finally(() => {
      pruning = undefined;
    }));
  const wrote = () => {
    if (++writes >= PRUNE_EVERY_WRITES || Date.now() - lastPrune >= PRUNE_EVERY_MS)
      prune().catch(() => undefined); // in the background; the next round tries again
  };
  const intentStore = fileIntentStore({ disk, ttlMs, wrote });
  const dedupeStore = fileDedupeStore(disk, wrote);
  return { intentStore, dedupeStore, prune };
}

async function open(directory: string, injected: FileStoreFs | undefined): Promise<Disk> {
  let fs: FileStoreFs;
  try {
    fs = injected ?? ((await import(/* @vite-ignore */ FS_MODULE)) as FileStoreFs);
  } catch (cause) {
    const error = new ConfigurationError('fileStores', `cannot load ${FS_MODULE} on ${runtimeName()}.`);
    (error as { cause?: unknown }).cause = cause;
    throw error;
  }
  const root = `${directory}/v1`;
  await fs.mkdir(root, { recursive: true });
  const disk = new Disk(root, fs);
  for (const folder of FOLDERS) await disk.folder(disk.path(folder), root);
  // The format folder's name in the directory, and the directory's in its parent: durable before
  // the first intent is.
  await disk.syncFolder(root);
  await disk.syncFolder(directory);
  const slash = Math.max(directory.lastIndexOf('/'), directory.lastIndexOf('\\'));
  const parent = slash > 0 ? directory.slice(0, slash) : slash === 0 ? '/' : '.';
  await disk.syncFolder(parent).catch(() => undefined); // may not be readable: the directory existed then
  return disk;
}

/** Temporary files left by a process killed mid-write, and folders a prune was discarding. */
async function sweep(disk: Disk, now: number): Promise<void> {
  for (const name of await disk.list(disk.path('tmp'))) {
    const path = disk.path('tmp', name);
    const stat = await disk.fs.stat(path).catch(() => undefined);
    if (stat && stat.mtimeMs <= now - GRACE_MS) await disk.fs.unlink(path).catch(() => undefined);
  }
  for (const name of await disk.list(disk.path('trash')))
    await disk.fs.rm(disk.path('trash', name), { recursive: true, force: true }).catch((error: unknown) => {
      if (codeOf(error) !== 'ENOENT') throw error;
    });
}
