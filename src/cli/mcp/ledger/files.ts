// The agent ledger in files under `--state-dir` (./ledger.ts): one JSON file, `agent-ledger.json`,
// changed only under a lock file and replaced whole by an atomic rename of a synced copy (then the
// folder synced), so that a reader sees the old file or the new one, never half of one, and an
// answer is given only once its reservation is on disk. The lock is `agent-ledger.lock`, created
// with O_EXCL and holding its owner's pid: the servers sharing the folder run on this machine, so a
// lock whose owner is gone (SIGKILL inside the few milliseconds it is held) is seen to be stale and
// taken over; a lock held longer than STALE_MS by a live process is waited on, never broken.
import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentLedger,
  decide,
  type Entry,
  type EntryPatch,
  type LedgerKind,
  observeIn,
  patchEntry,
  pendingIn,
  type ReserveAnswer,
  type ReserveRequest,
  type Sighting,
} from './ledger.js';

/** How long to wait for the lock in all before failing the call (nothing is sent then). */
const LOCK_WAIT_MS = 10_000;

interface Ledger {
  v: 1;
  entries: Entry[];
}

/** The ledger in `directory` (the state directory, which exists and is writable). */
export async function fileLedger(directory: string): Promise<AgentLedger> {
  const folder = join(directory, 'agent');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, 'agent-ledger.json');
  const lock = join(folder, 'agent-ledger.lock');

  async function read(): Promise<Ledger> {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Ledger;
      return parsed.v === 1 && Array.isArray(parsed.entries) ? parsed : { v: 1, entries: [] };
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return { v: 1, entries: [] };
      throw error;
    }
  }

  async function write(ledger: Ledger): Promise<void> {
    const tmp = `${file}.${process.pid}.${randomUUID()}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(ledger));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
    await syncFolder(folder);
  }

  /** Runs `change` on the ledger under the lock; writes it back when `change` says it changed. */
  async function locked<T>(change: (ledger: Ledger) => { result: T; changed: boolean }): Promise<T> {
    const token = await acquire(lock);
    try {
      const ledger = await read();
      const { result, changed } = change(ledger);
      if (changed) await write(ledger);
      return result;
    } finally {
      await release(lock, token);
    }
  }

  return {
    where: `files in ${folder}`,
    reserve: (request: ReserveRequest) =>
      locked<ReserveAnswer>((ledger) => {
        const before = ledger.entries.length;
        const answer = decide(ledger.entries, request);
        // Pruning alone is not worth a write; a reservation is.
        const changed = (answer.ok && !answer.existing) || ledger.entries.length !== before;
        return { result: answer, changed };
      }),
    update: (kind: LedgerKind, key: string, patch: EntryPatch) =>
      locked((ledger) => ({ result: undefined, changed: patchEntry(ledger.entries, kind, key, patch) })),
    observe: (seen: Sighting) =>
      locked((ledger) => {
        const { changed, given } = observeIn(ledger.entries, seen);
        return { result: given, changed };
      }),
    pending: async (since: number) => pendingIn((await read()).entries, since),
    close: async () => undefined,
  };
}

async function syncFolder(folder: string): Promise<void> {
  // A folder cannot be opened for syncing on Windows; the rename is what matters there.
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Takes the lock file; resolves to the token written in it. */
async function acquire(lock: string): Promise<string> {
  const token = `${process.pid} ${randomUUID()}`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      return token;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    await breakIfStale(lock);
    if (Date.now() > deadline) {
      throw new Error(`the agent ledger's lock ${lock} stayed taken for ${LOCK_WAIT_MS / 1000} s`);
    }
    await new Promise((done) => setTimeout(done, Math.min(50, 2 + attempt * 2) * (0.5 + Math.random())));
  }
}

async function release(lock: string, token: string): Promise<void> {
  const held = await readFile(lock, 'utf8').catch(() => undefined);
  if (held === token) await unlink(lock).catch(() => undefined);
}

/**
 * Removes the lock when the process that holds it is gone. It is moved aside under a name of its
 * own first and checked there: when another waiter replaced it in between (it broke the same stale
 * lock and took a new one), the live lock is put back (a hard link, which never overwrites).
 */
async function breakIfStale(lock: string): Promise<void> {
  const held = await readFile(lock, 'utf8').catch(() => undefined);
  if (held === undefined) return;
  const pid = Number(held.split(' ')[0]);
  // An unreadable or half-written lock (its owner died between creating and writing it) is stale
  // only once it is old: it may be a lock being written right now.
  if (Number.isSafeInteger(pid) && pid > 0 ? alive(pid) : !(await olderThan(lock, 5_000))) return;
  const aside = `${lock}.${randomUUID()}.stale`;
  try {
    await rename(lock, aside);
  } catch {
    return; // gone already
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (moved !== held) {
    await link(aside, lock).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > ms;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'; // another user's live process
  }
}
