// What the file stores ask of the file system: a file written and synced before its name appears,
// a name that only one process can create (a hard link, which fails when the name exists), and
// records kept as numbered versions in a folder, the next number being the only way to change one.
// Paths are joined with '/', which every runtime's file system accepts, so that node:path is not needed.

/**
 * An open file, as `node:fs/promises`'s `FileHandle` has it (the part the file stores use).
 *
 * @example
 * const handle: FileStoreHandle = await fs.open('/var/lib/shop/payments/v1/tmp/x', 'wx');
 */
export interface FileStoreHandle {
  /** Writes the file's whole content. */
  writeFile(data: string): Promise<void>;
  /** Flushes the file (or the folder's entries) to the disk: `fsync`. */
  sync(): Promise<void>;
  /** Closes the handle. */
  close(): Promise<void>;
}

/**
 * The file system calls of {@link fileStores}: `node:fs/promises` by default (Node.js, Bun and Deno
 * all provide it). Another one serves tests (counting syncs, say) or an instrumented file system.
 *
 * @example
 * import * as fs from 'node:fs/promises';
 * const stores = fileStores('/var/lib/shop/payments', { fs: fs satisfies FileStoreFs });
 */
export interface FileStoreFs {
  /** Makes a folder (and its parents with `recursive`). */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  /** Opens a file, or a folder (`'r'`) to sync its entries. */
  open(path: string, flags: string): Promise<FileStoreHandle>;
  /** Names a written file: fails with `EEXIST` when the name is taken (how a version is claimed). */
  link(existingPath: string, newPath: string): Promise<void>;
  /** Moves a file or folder within the directory's file system. */
  rename(oldPath: string, newPath: string): Promise<void>;
  /** Removes a file's name. */
  unlink(path: string): Promise<void>;
  /** Removes an empty folder. */
  rmdir(path: string): Promise<void>;
  /** Removes a folder with what it holds. */
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  /** The names in a folder. */
  readdir(path: string): Promise<string[]>;
  /** A file's text. */
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  /** When a file or folder last changed. */
  stat(path: string): Promise<{ mtimeMs: number }>;
}

/** One version of a record kept as numbered files: `<n>.json` in its folder. */
export interface Version<T> {
  n: number;
  value: T;
}

const VERSION_NAME = /^(\d+)\.json$/;

export const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** The hex SHA-256 of `text`: a fixed-length file name for any key (up to 255 characters, any). */
export async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** The folders of the format, under the directory given to fileStores. */
export const FOLDERS = ['tmp', 'keys', 'orders', 'refunds', 'events', 'made', 'trash'] as const;

/** The file system calls over one store directory, with its write discipline. */
export class Disk {
  #temps = 0;
  /** Unique among the processes sharing the directory: temporary names never collide. */
  readonly #id = crypto.randomUUID();
  /** Windows cannot open a folder to sync it; NTFS journals its entries itself. */
  readonly #syncFolders: boolean;

  constructor(
    /** `<directory>/v1`: every path below starts here. */
    readonly root: string,
    readonly fs: FileStoreFs,
  ) {
    const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
    this.#syncFolders = platform !== 'win32';
  }

  path(...parts: string[]): string {
    return [this.root, ...parts].join('/');
  }

  /** Makes the folder's entries (a file created, linked, renamed or removed in it) durable. */
  async syncFolder(path: string): Promise<void> {
    if (!this.#syncFolders) return;
    const handle = await this.fs.open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** `data` in a new temporary file, written and synced: ready to be linked or renamed into place. */
  async temp(data: string): Promise<string> {
    const path = this.path('tmp', `${this.#id}-${++this.#temps}`);
    const handle = await this.fs.open(path, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return path;
  }

  /**
   * Creates `path` holding `data` unless it exists (false then), whole or not at all: the content
   * is synced under a temporary name, then hard-linked to `path`, which fails when the name exists,
   * atomically across processes. Resolves once the name is synced in `folder` (its folder).
   */
  async createOnce(path: string, folder: string, data: string): Promise<boolean> {
    const temp = await this.temp(data);
    try {
      await this.fs.link(temp, path);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return false;
      throw error;
    } finally {
      await this.fs.unlink(temp).catch(() => undefined);
    }
    await this.syncFolder(folder);
    return true;
  }

  /** Writes `path` (a new file or a replacement) whole, and syncs it and its name before resolving. */
  async replace(path: string, folder: string, data: string): Promise<void> {
    const temp = await this.temp(data);
    try {
      await this.fs.rename(temp, path);
    } catch (error) {
      await this.fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    await this.syncFolder(folder);
  }

  /** Creates a folder; when it is new, syncs its parent so that it survives a power loss. */
  async folder(path: string, parent: string): Promise<void> {
    try {
      await this.fs.mkdir(path);
    } catch (error) {
      if (codeOf(error) === 'EEXIST') return;
      throw error;
    }
    await this.syncFolder(parent);
  }

  async readJson<T>(path: string): Promise<T | undefined> {
    try {
      return JSON.parse(await this.fs.readFile(path, 'utf8')) as T;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      return await this.fs.readdir(folder);
    } catch (error) {
      if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return [];
      throw error;
    }
  }

  /** The newest version in `cell` (a folder of `<n>.json`), or undefined when it has none. */
  async latest<T>(cell: string): Promise<Version<T> | undefined> {
    for (;;) {
      let n = 0;
      for (const name of await this.list(cell)) {
        const m = VERSION_NAME.exec(name);
        if (m) n = Math.max(n, Number(m[1]));
      }
      if (n === 0) return undefined;
      const value = await this.readJson<T>(`${cell}/${n}.json`);
      if (value !== undefined) return { n, value };
      // The folder was pruned between the listing and the read: look again.
    }
  }

  /**
   * Writes version `n` of `cell` (the one after the version the caller read), unless another
   * process wrote it first: false then, and the caller reads again. This is the compare-and-set
   * that makes every change of a record atomic across processes: two writers of version `n`
   * cannot both create its name. Resolves once the version is on disk (content and name synced).
   */
  async commit(cell: string, parent: string, n: number, value: unknown): Promise<boolean> {
    let created: boolean;
    try {
      if (n === 1)
        await this.fs.mkdir(cell).catch((e: unknown) => (codeOf(e) === 'EEXIST' ? 0 : Promise.reject(e)));
      created = await this.createOnce(`${cell}/${n}.json`, cell, JSON.stringify(value));
    } catch (error) {
      // The folder was pruned since the caller read it: it reads again (and finds it new).
      if (codeOf(error) === 'ENOENT') return false;
      throw error;
    }
    // A first version: the folder's own name too (whoever made it), so that it survives a power loss.
    if (created && n === 1) await this.syncFolder(parent);
    return created;
  }

  /** Moves a folder out of the way (atomically), then deletes it. */
  async discard(folder: string): Promise<void> {
    const away = this.path('trash', `${this.#id}-${++this.#temps}`);
    try {
      await this.fs.rename(folder, away);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return;
      throw error;
    }
    await this.fs.rm(away, { recursive: true, force: true });
  }
}
