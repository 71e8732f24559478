// Real Redis and Postgres for the fleet tests: found (or installed from Debian's packages when this
// runs as root with apt-get), started on a random loopback port in a temp dir, removed afterwards.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PG_BIN = '/usr/lib/postgresql/15/bin';

export function which(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat('/usr/sbin', '/usr/bin')) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Installs Debian packages when root with apt-get; otherwise says which command to run. */
function aptInstall(what: string, packages: string[]): void {
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (!isRoot() || !which('apt-get')) {
    throw new Error(`The fleet tests need ${what}. Install it with: sudo sh -c '${command}'`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('sh', ['-c', command], { stdio: 'ignore', env });
}

/** Makes sure redis-server and PostgreSQL 15 are there (run once, from the global setup). */
export function ensureEngines(): void {
  if (!which('redis-server')) aptInstall('redis-server', ['redis-server']);
  if (!existsSync(join(PG_BIN, 'postgres'))) aptInstall('PostgreSQL 15', ['postgresql']);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, child: ChildProcess, log: () => string) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what} did not start: ${log()}`);
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** A running engine. */
export interface Engine {
  url: string;
  port: number;
  /** Stops the engine (SIGKILL for an outage) and removes its directory. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** redis-server on `port`, bound to loopback, keeping nothing on disk beyond `dir`. */
export function redisServerArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
}

/** Starts redis-server on a random loopback port, with no persistence, in a temp dir. */
export async function startRedis(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-redis-'));
  const port = await freePort();
  const args = redisServerArgs(port, dir);
  const child = spawn(which('redis-server') ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  await waitFor(
    async () => out.includes('Ready to accept connections'),
    'redis-server',
    child,
    () => out,
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(signal) {
      await stop(child, signal);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a throwaway PostgreSQL 15 cluster (as the `postgres` user when root) on a random loopback port. */
export async function startPostgres(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  // The server refuses to run as root: run it as the postgres user (what `runuser -u postgres` does,
  // without a runuser process in between that would not pass our signals on).
  const user = isRoot() ? postgresUser() : {};
  execFileSync(
    join(PG_BIN, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions'],
    { stdio: 'ignore', ...user },
  );
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ];
  const child = spawn(join(PG_BIN, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], ...user });
  let out = '';
  child.stderr?.on('data', (d) => {
    out += d;
  });
  await waitFor(
    async () => out.includes('database system is ready to accept connections'),
    'postgres',
    child,
    () => out,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop(signal) {
      // SIGINT is the server's fast shutdown.
      await stop(child, signal ?? 'SIGINT');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
