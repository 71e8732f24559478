// `--state-dir DIR` (default: args.ts's defaultStateDir): the server's intents in `fileStores` on this
// machine's disk, so that an MCP server restarted by its client (every new session of an agent, a
// crash) still returns the same payment for a key and refunds once (api.md 22), with no Redis or
// Postgres to run. Loaded by run.ts only: the directory is created and checked when the server
// starts, never by `--help` or a usage error.
import { constants } from 'node:fs';
import { access, mkdir, open, unlink } from 'node:fs/promises';
import { fileStores } from '../../stores/index.js';
import { fileLedger } from './ledger/files.js';
import type { OpenedStore } from './stores.js';
import { StoreError } from './stores.js';

/**
 * The file stores under `directory`, created (mode 0700: the records name orders and payments of
 * this user's account) and checked for writing now, so that a directory the server cannot use is
 * an error at start (exit 3) and not a failed charge later.
 */
export async function openStateDir(directory: string): Promise<OpenedStore> {
  try {
    // Only the folders created here get 0700; an existing directory keeps the mode its owner chose.
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await access(directory, constants.W_OK);
    const stores = fileStores(directory);
    // Opens the store format (its folders, synced) and drops what is past its retention: a server
    // started for every session of an agent's client would otherwise prune only after an hour.
    await stores.prune();
    await probe(`${directory}/v1/tmp`);
    // The budgets and the duplicate guard beside the intents (api.md 24), in a folder of their own.
    const ledger = await fileLedger(directory);
    return { intentStore: stores.intentStore, ledger, close: async () => undefined };
  } catch (error) {
    throw new StoreError(
      `cannot use the state directory ${directory}: ${reason(error)}. Give --state-dir a directory this user can write, or --intent-store redis://... or postgres://...`,
    );
  }
}

/**
 * Creates and removes a file where the stores write theirs: `access` answers from the mode bits,
 * which a read-only mount or an ACL can contradict.
 */
async function probe(folder: string): Promise<void> {
  const path = `${folder}/start-${process.pid}-${Date.now()}`;
  const handle = await open(path, 'wx');
  await handle.close();
  await unlink(path);
}

function reason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !text.startsWith(code) ? `${code}: ${text}` : text;
}
